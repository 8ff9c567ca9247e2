package sweep

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/loadlab/loadlab"
)

const pkg = "sweep"

// Shard is shard Index of Count: the runs r with r mod Count = Index.
type Shard struct {
	Index, Count int
}

// Whole is the single shard holding every run.
var Whole = Shard{0, 1}

// ParseShard parses a shard spec "i/N": two decimal integers 0 ≤ i < N
// written with digits only — no sign, blank, leading zero or other
// character, so that a spec built by a script that went wrong (" 0/2",
// "+1/2", "01/2") is refused rather than tidied. A malformed spec, N ≤ 0
// or i ≥ N gives an error wrapping loadlab.ErrInvalid naming the spec.
func ParseShard(spec string) (Shard, error) {
	a, b, ok := strings.Cut(spec, "/")
	i, okI := decimal(a)
	n, okN := decimal(b)
	if !ok || !okI || !okN {
		return Shard{}, loadlab.Invalid(pkg, "shard spec %q, want i/N with decimal integers 0 ≤ i < N (digits only: no sign, blank or leading zero)", spec)
	}
	s := Shard{i, n}
	if why := s.fault(); why != "" {
		return Shard{}, loadlab.Invalid(pkg, "shard spec %q: %s", spec, why)
	}
	return s, nil
}

// decimal parses s, an integer in canonical decimal form ("0", or
// digits not starting with 0, negative ones after a '-' so that the
// error can say i = −1), reporting false for anything else, including a
// value that overflows int.
func decimal(s string) (int, bool) {
	digits := strings.TrimPrefix(s, "-")
	if digits == "" || len(digits) > 1 && digits[0] == '0' || digits == "0" && s != digits {
		return 0, false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, false
		}
	}
	v, err := strconv.Atoi(s)
	return v, err == nil
}

// Validate returns an error wrapping loadlab.ErrInvalid unless
// Count ≥ 1 and 0 ≤ Index < Count.
func (s Shard) Validate() error {
	if why := s.fault(); why != "" {
		return loadlab.Invalid(pkg, "shard %d/%d: %s", s.Index, s.Count, why)
	}
	return nil
}

// fault says what is wrong with s, or "" if it is valid.
func (s Shard) fault() string {
	switch {
	case s.Count < 1:
		return fmt.Sprintf("N = %d, want N ≥ 1", s.Count)
	case s.Index < 0:
		return fmt.Sprintf("i = %d, want i ≥ 0", s.Index)
	case s.Index >= s.Count:
		return fmt.Sprintf("i = %d, want i < N = %d", s.Index, s.Count)
	}
	return ""
}

// String returns the spec "i/N".
func (s Shard) String() string { return strconv.Itoa(s.Index) + "/" + strconv.Itoa(s.Count) }

// Has reports whether run r belongs to the shard. It panics if s is not
// valid (Validate).
func (s Shard) Has(r int) bool {
	s.mustValid("Has")
	return r >= 0 && r%s.Count == s.Index
}

// mustValid panics, naming the method, if s is not valid: a zero or
// hand-built Shard (Count < 1 would divide by zero or never end a loop).
func (s Shard) mustValid(method string) {
	if err := s.Validate(); err != nil {
		panic("sweep: Shard." + method + ": " + err.Error())
	}
}

// Runs returns the shard's runs among total runs, in increasing order.
// It allocates one int per run; RunShard iterates without it. It panics
// if s is not valid (Validate).
func (s Shard) Runs(total int) []int {
	s.mustValid("Runs")
	var rs []int
	s.each(total, func(r int) bool { rs = append(rs, r); return true })
	return rs
}

// NumRuns returns len(s.Runs(total)) without allocating. It panics if s
// is not valid (Validate).
func (s Shard) NumRuns(total int) int {
	s.mustValid("NumRuns")
	if s.Index >= total {
		return 0
	}
	return (total-s.Index-1)/s.Count + 1
}

// each calls f on the shard's runs in increasing order until f returns
// false; r += Count cannot overflow (the loop stops first).
func (s Shard) each(total int, f func(r int) bool) {
	for r := s.Index; r < total; r += s.Count {
		if !f(r) || r > total-s.Count {
			return
		}
	}
}
