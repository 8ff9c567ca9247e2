package codedload

import (
	"fmt"
	"math"
	"slices"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/coding"
)

// Strategy is a delivery strategy of spec §5 together with its own
// parameters: one of the values NearestReplica{}, Coded{…}, TwoChoice{…},
// TwoChoiceGlobal{} and TwoChoiceStretch{…} (or pointers to them). The
// interface is sealed: the simulator has its own code path for each.
type Strategy interface {
	// Validate returns an error naming the first invalid parameter, or nil.
	Validate() error
	// String returns a short name ("coded", "two choices (a)", …).
	String() string
	// spec returns the parameters the simulator reads.
	spec() strategySpec
}

// kind is the simulator's code path of a strategy.
type kind uint8

const (
	kindNearest kind = iota
	kindCoded
	kindTwoRadius
	kindTwoGlobal
	kindTwoStretch
)

// strategySpec is what the simulator reads of a strategy.
type strategySpec struct {
	kind   kind
	ell    int     // pieces per file; 1 for uncoded strategies
	cap    int     // Coded: chnk_max, 0 = no cap
	field  int     // Coded: 0 ideal decoding, else RLNC over GF(field)
	radius int     // TwoChoice
	alpha  float64 // TwoChoiceStretch
}

// NearestReplica serves each request from the nearest server caching the
// file (spec §5.1): load +1, cost +dist. It is Coded{Ell: 1} on an uncoded
// placement and runs through the same code.
type NearestReplica struct{}

// Validate returns nil: NearestReplica has no parameters.
func (NearestReplica) Validate() error { return nil }

// String returns "nearest replica".
func (NearestReplica) String() string { return "nearest replica" }

func (NearestReplica) spec() strategySpec { return strategySpec{kind: kindNearest, ell: 1} }

// Coded serves each request with the Ell nearest coded chunk copies of the
// file (spec §5.2), each adding 1/Ell to its sender's load and dist/Ell to
// the cost. Selection is exact: with D the distance where N(<D) < ℓ ≤
// N(≤D), all copies closer than D are taken and ℓ − N(<D) are chosen among
// the copies at D by Config.Ties.
type Coded struct {
	// Ell is the number of pieces ℓ ≥ 1 per file. Required: there is no
	// default (ℓ = 1 is nearest replica on a coded placement).
	Ell int
	// ChunkCap is the per-server cap chnk_max on the chunks of the
	// requested file that one server may send for one request (spec
	// §5.2): a value ≥ 1 is the cap, and 0 means no cap (the paper's
	// description; chnk_max = 1 forces ℓ distinct senders).
	ChunkCap int
	// Field selects the decoding model (spec §11.6). 0, the default, is
	// the paper's ideal code: any ℓ copies decode (an MDS code). 2, 4, 16
	// or 256 makes every stored copy a random linear combination of the
	// file's pieces with uniform coefficients over GF(Field) (package
	// coding); a request takes copies nearest first (equidistant ones in
	// random order under TieRandom, by server index under TieLowest and
	// TieListOrder) until their coefficient vectors span GF(Field)^ℓ,
	// each copy beyond
	// the ℓ-th adding to load and cost like the others
	// (Result.ExtraChunks), and a file whose copies do not span is in
	// outage (Result.Undecodable).
	Field int
}

// Validate returns an error wrapping loadlab.ErrInvalid unless Ell ≥ 1,
// ChunkCap ≥ 0 and Field is 0 or one of coding.Fields. Sizes (Cache·Ell slots per server) are checked by
// Config.Validate.
func (s Coded) Validate() error {
	switch {
	case s.Ell < 1:
		return loadlab.Invalid(pkg, "Coded.Ell = %d, want ≥ 1", s.Ell)
	case s.ChunkCap < 0:
		return loadlab.Invalid(pkg, "Coded.ChunkCap (chnk_max) = %d, want ≥ 1, or 0 for no cap", s.ChunkCap)
	case s.Field != 0 && !slices.Contains(coding.Fields, s.Field):
		return loadlab.Invalid(pkg, "Coded.Field = %d, want 0 (ideal decoding) or one of %v", s.Field, coding.Fields)
	}
	return nil
}

// String returns "coded", or "coded, RLNC over GF(q)" with a Field.
func (s Coded) String() string {
	if s.Field != 0 {
		return fmt.Sprintf("coded, RLNC over GF(%d)", s.Field)
	}
	return "coded"
}

func (s Coded) spec() strategySpec {
	return strategySpec{kind: kindCoded, ell: s.Ell, cap: s.ChunkCap, field: s.Field}
}

// TwoChoice is proximity-aware power of two choices, variant (a) of spec
// §5.3: two servers drawn uniformly with replacement from the holders within
// Radius hops; the less loaded one serves. With no holder in the ball the
// request falls back to nearest replica and is counted in Result.Fallbacks.
type TwoChoice struct {
	// Radius r ≥ 1, in hops, of the ball searched. Required.
	Radius int
}

// Validate returns an error wrapping loadlab.ErrInvalid unless Radius ≥ 1.
func (s TwoChoice) Validate() error {
	if s.Radius < 1 {
		return loadlab.Invalid(pkg, "TwoChoice.Radius = %d, want ≥ 1", s.Radius)
	}
	return nil
}

// String returns "two choices (a)".
func (TwoChoice) String() string { return "two choices (a)" }

func (s TwoChoice) spec() strategySpec {
	return strategySpec{kind: kindTwoRadius, ell: 1, radius: s.Radius}
}

// TwoChoiceGlobal is the reference simulator's two choices, variant (b) of
// spec §5.3: the nearest replica against a holder drawn uniformly from all
// the others, anywhere in the network.
type TwoChoiceGlobal struct{}

// Validate returns nil: TwoChoiceGlobal has no parameters.
func (TwoChoiceGlobal) Validate() error { return nil }

// String returns "two choices (b)".
func (TwoChoiceGlobal) String() string { return "two choices (b)" }

func (TwoChoiceGlobal) spec() strategySpec { return strategySpec{kind: kindTwoGlobal, ell: 1} }

// TwoChoiceStretch is the reference simulator's trade-off rule, variant (c)
// of spec §5.3: the origin (if it caches the file) or the nearest holder,
// against a holder drawn uniformly among the others within (1+Alpha)·d_min
// hops, d_min being the distance to the nearest holder other than the
// origin.
type TwoChoiceStretch struct {
	// Alpha ≥ 0 is the stretch; the zero value 0 draws the second
	// candidate from the nearest shell only.
	Alpha float64
}

// Validate returns an error wrapping loadlab.ErrInvalid unless Alpha is
// finite and ≥ 0.
func (s TwoChoiceStretch) Validate() error {
	if !(s.Alpha >= 0) || math.IsInf(s.Alpha, 1) {
		return loadlab.Invalid(pkg, "TwoChoiceStretch.Alpha = %v, want a finite value ≥ 0", s.Alpha)
	}
	return nil
}

// String returns "two choices (c)".
func (TwoChoiceStretch) String() string { return "two choices (c)" }

func (s TwoChoiceStretch) spec() strategySpec {
	return strategySpec{kind: kindTwoStretch, ell: 1, alpha: s.Alpha}
}

// pkg prefixes every error and panic message of the package.
const pkg = "codedload"
