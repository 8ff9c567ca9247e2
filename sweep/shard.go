package sweep

import (
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

// ParseShard parses a shard spec "i/N" with integers 0 ≤ i < N. A
// malformed spec, N ≤ 0, i < 0 or i ≥ N gives an error wrapping
// loadlab.ErrInvalid naming the spec.
func ParseShard(spec string) (Shard, error) {
	a, b, ok := strings.Cut(strings.TrimSpace(spec), "/")
	if !ok {
		return Shard{}, loadlab.Invalid(pkg, "shard spec %q, want i/N", spec)
	}
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil {
		return Shard{}, loadlab.Invalid(pkg, "shard spec %q, want i/N with integers i and N", spec)
	}
	s := Shard{i, n}
	if err := s.Validate(); err != nil {
		return Shard{}, err
	}
	return s, nil
}

// Validate returns an error wrapping loadlab.ErrInvalid unless
// Count ≥ 1 and 0 ≤ Index < Count.
func (s Shard) Validate() error {
	switch {
	case s.Count < 1:
		return loadlab.Invalid(pkg, "shard %d/%d: N = %d, want N ≥ 1", s.Index, s.Count, s.Count)
	case s.Index < 0:
		return loadlab.Invalid(pkg, "shard %d/%d: i = %d, want i ≥ 0", s.Index, s.Count, s.Index)
	case s.Index >= s.Count:
		return loadlab.Invalid(pkg, "shard %d/%d: i = %d, want i < N = %d", s.Index, s.Count, s.Index, s.Count)
	}
	return nil
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
