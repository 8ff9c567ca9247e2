package sweep

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"slices"
	"strconv"

	"github.com/loadlab/loadlab"
)

// Plan describes a sweep: Runs independent runs of the sweep Name with
// configuration Config, run r using the seed path Seed, Prefix..., r, or
// Path(r) if Path is set.
type Plan struct {
	Name   string
	Config any      // encoded with encoding/json; its canonical form is hashed
	Seed   uint64   // root seed
	Prefix []uint64 // seed path between the root seed and the run index
	Runs   int
	// Path, if not nil, returns the seed path of run r (0 ≤ r < Runs)
	// in place of Seed, Prefix..., r: for sweeps whose runs are
	// (point, run) pairs, run r of the flattened loop using the
	// stream (Seed, point, run of the point). Its first element must be
	// Seed.
	Path func(r int) []uint64
}

// Validate returns an error wrapping loadlab.ErrInvalid if Name is
// empty, Runs < 1, Path(0) does not start with Seed or Config has no
// JSON encoding.
func (p Plan) Validate() error {
	if p.Name == "" {
		return loadlab.Invalid(pkg, "Plan.Name is empty")
	}
	if p.Runs < 1 {
		return loadlab.Invalid(pkg, "Plan.Runs = %d, want ≥ 1", p.Runs)
	}
	if p.Path != nil {
		if sp := p.Path(0); len(sp) == 0 || sp[0] != p.Seed {
			return loadlab.Invalid(pkg, "Plan.Path(0) = %v, want a seed path starting with Seed = %d", sp, p.Seed)
		}
	}
	_, err := p.Hash()
	return err
}

// Hash returns the hex SHA-256 of the canonical JSON of Config: its
// encoding decoded and re-encoded, so object keys are sorted and
// insignificant white space is gone.
func (p Plan) Hash() (string, error) {
	raw, err := json.Marshal(p.Config)
	if err != nil {
		return "", loadlab.Invalid(pkg, "Plan.Config has no JSON encoding: %v", err)
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // keep numbers as written: no float64 rounding of large integers
	if err := dec.Decode(&v); err != nil {
		return "", loadlab.Invalid(pkg, "Plan.Config: %v", err)
	}
	canon, err := json.Marshal(v)
	if err != nil {
		return "", loadlab.Invalid(pkg, "Plan.Config: %v", err)
	}
	sum := sha256.Sum256(canon)
	return hex.EncodeToString(sum[:]), nil
}

// SeedPath returns the seed path of run r: Path(r) if Path is set,
// otherwise Seed, Prefix..., r.
func (p Plan) SeedPath(r int) []uint64 {
	if p.Path != nil {
		return p.Path(r)
	}
	return append(append([]uint64{p.Seed}, p.Prefix...), uint64(r))
}

// Header is the first line of a partial-result file.
type Header struct {
	Sweep      string `json:"sweep"`
	ConfigHash string `json:"config_sha256"`
	Seed       uint64 `json:"seed"`
	Shard      string `json:"shard"`
	Runs       int    `json:"runs"`
}

// Record is the result of one run.
type Record struct {
	Run      int      `json:"run"`
	SeedPath []uint64 `json:"seed_path"`
	Values   []Value  `json:"values"`
}

// Floats returns the record's values as float64.
func (r Record) Floats() []float64 {
	xs := make([]float64, len(r.Values))
	for i, v := range r.Values {
		xs[i] = float64(v)
	}
	return xs
}

// Value is a float64 whose JSON form round-trips bit for bit, NaN and
// ±Inf included (as the strings "NaN", "+Inf", "-Inf").
type Value float64

// Values converts xs.
func Values(xs []float64) []Value {
	vs := make([]Value, len(xs))
	for i, x := range xs {
		vs[i] = Value(x)
	}
	return vs
}

// MarshalJSON writes the shortest decimal that parses back to v.
func (v Value) MarshalJSON() ([]byte, error) {
	x := float64(v)
	switch {
	case math.IsNaN(x):
		return []byte(`"NaN"`), nil
	case math.IsInf(x, 1):
		return []byte(`"+Inf"`), nil
	case math.IsInf(x, -1):
		return []byte(`"-Inf"`), nil
	}
	return strconv.AppendFloat(nil, x, 'g', -1, 64), nil
}

// UnmarshalJSON reads what MarshalJSON writes.
func (v *Value) UnmarshalJSON(b []byte) error {
	s := string(b)
	if len(s) >= 2 && s[0] == '"' {
		s = s[1 : len(s)-1]
		if !slices.Contains([]string{"NaN", "+Inf", "-Inf"}, s) {
			return loadlab.Invalid(pkg, "value %q, want a number, \"NaN\", \"+Inf\" or \"-Inf\"", s)
		}
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return loadlab.Invalid(pkg, "value %s: %v", b, err)
	}
	*v = Value(x)
	return nil
}
