package codedload

import (
	"fmt"
	"math"
)

// Strategy is a delivery strategy (spec §5).
type Strategy int

const (
	// NearestReplica serves each request from the nearest server caching
	// the file (spec §5.1). It is the ℓ = 1 case of Coded on an uncoded
	// placement, and runs through the same code.
	NearestReplica Strategy = iota
	// Coded serves each request with the Ell nearest coded chunk copies of
	// the file, each adding 1/Ell to its sender's load (spec §5.2).
	Coded
	// TwoChoice is proximity-aware power of two choices, variant (a) of
	// spec §5.3: two servers drawn uniformly with replacement from the
	// holders within Radius hops; the less loaded one serves. With no holder
	// in the ball the request falls back to NearestReplica and is counted in
	// Result.Fallbacks.
	TwoChoice
	// TwoChoiceGlobal is the reference simulator's two choices, variant (b)
	// of spec §5.3: the nearest replica against a holder drawn uniformly
	// from all the others, anywhere in the network.
	TwoChoiceGlobal
	// TwoChoiceStretch is the reference simulator's trade-off rule, variant
	// (c) of spec §5.3: the origin (if it caches the file) or the nearest
	// holder, against a holder drawn uniformly among the others within
	// (1+Alpha)·d_min hops, d_min being the distance to the nearest holder
	// other than the origin.
	TwoChoiceStretch
)

var strategyNames = [...]string{"nearest replica", "coded", "two choices (a)", "two choices (b)", "two choices (c)"}

// String returns a short name for s.
func (s Strategy) String() string {
	if s < 0 || int(s) >= len(strategyNames) {
		return fmt.Sprintf("Strategy(%d)", int(s))
	}
	return strategyNames[s]
}

// PlacementKind selects the cache placement (spec §4).
type PlacementKind int

const (
	// Proportional fills each server's slots (Cache files, or Cache·Ell
	// chunks for Coded) with independent draws from the popularity law,
	// with replacement, as the reference simulator does (spec §4.1, §4.2).
	// Uncoded servers keep the set of files drawn; coded servers keep every
	// drawn chunk (copies of one file at one server count with
	// multiplicity).
	Proportional PlacementKind = iota
	// Uniform is the reference simulator's "uniform" placement (spec §4.1,
	// S3 variant): a random permutation of the Files·Ell (file, chunk) pairs
	// is dealt round-robin to servers 0, 1, …, n−1, 0, …, and each server's
	// remaining slots are filled by uniform draws with replacement. Every
	// file is then present, so no request is in outage. It needs
	// n·Cache ≥ Files.
	Uniform
	// Full replication: every server caches every file (all Ell pieces).
	// Every uncoded request is then served at its origin (spec §8 C).
	Full
)

// RequestMode selects how requests arrive (spec §3.3).
type RequestMode int

const (
	// ExactN draws exactly n requests, each with a uniform origin and a
	// popularity-distributed file, as the reference simulator does.
	ExactN RequestMode = iota
	// Poissonized draws N ~ Po(n) requests with uniform origins, so the
	// per-server counts R_i are independent Po(1) (Poisson splitting).
	Poissonized
)

// TieRule selects how equidistant candidates are chosen (spec §5).
type TieRule int

const (
	// TieRandom chooses uniformly at random among equidistant chunk copies
	// (or servers), and decides equal-load comparisons by a fair coin.
	TieRandom TieRule = iota
	// TieLowest chooses the lowest server index, and in an equal-load
	// comparison the first candidate. It gives deterministic tests.
	TieLowest
)

// Config is one simulation setting. The zero values of Strategy,
// Placement, Requests and Ties select nearest replica, proportional
// placement, exactly n requests and random tie-breaking.
type Config struct {
	// Topology is the network of n servers. Required.
	Topology Topology
	// Files is the library size K ≥ 1.
	Files int
	// Cache is the cache size M ≥ 1 of each server, in files.
	Cache int
	// Gamma is the Zipf exponent γ ≥ 0 of the popularity law (0: uniform).
	Gamma float64
	// Strategy is the delivery strategy.
	Strategy Strategy
	// Ell is the number of pieces ℓ ≥ 1 per file for Coded. Other
	// strategies do not split files: Ell must then be 0 or 1.
	Ell int
	// ChunkCap is the per-server cap chnk_max on the chunks of the
	// requested file that one server may send for one request (spec §5.2):
	// a value ≥ 1 is the cap, and the zero value 0 means no cap (the
	// paper's description; chnk_max = 1 forces ℓ distinct senders).
	// Negative values are an error. Only Coded reads it: an uncoded server
	// holds at most one copy of a file, so any cap ≥ 1 changes nothing.
	ChunkCap int
	// Radius r ≥ 1, in hops, of the ball searched by TwoChoice.
	Radius int
	// Alpha ≥ 0 is the stretch of TwoChoiceStretch.
	Alpha float64
	// Placement, Requests and Ties select the variants above.
	Placement PlacementKind
	Requests  RequestMode
	Ties      TieRule
	// KeepLoads asks Run to return every server's load in Result.Loads.
	KeepLoads bool
}

// ell returns the number of pieces per file actually used.
func (c *Config) ell() int {
	if c.Strategy == Coded {
		return c.Ell
	}
	return 1
}

// Validate returns an error naming the first invalid field of c, or nil.
func (c *Config) Validate() error {
	if c.Topology == nil {
		return fmt.Errorf("codedload: Topology is nil")
	}
	if err := checkTopology(c.Topology); err != nil {
		return err
	}
	n := c.Topology.Order()
	switch {
	case n < 1 || n > 1<<31-1:
		return fmt.Errorf("codedload: Topology has %d nodes: want 1 ≤ n < 2^31", n)
	case c.Files < 1:
		return fmt.Errorf("codedload: Files = %d: want ≥ 1", c.Files)
	case c.Files > 1<<31-1:
		return fmt.Errorf("codedload: Files = %d: want < 2^31", c.Files)
	case c.Cache < 1:
		return fmt.Errorf("codedload: Cache = %d: want ≥ 1", c.Cache)
	case !(c.Gamma >= 0) || math.IsInf(c.Gamma, 1):
		return fmt.Errorf("codedload: Gamma = %v: want a finite value ≥ 0", c.Gamma)
	case c.Strategy < NearestReplica || c.Strategy > TwoChoiceStretch:
		return fmt.Errorf("codedload: Strategy = %d: unknown", int(c.Strategy))
	case c.Placement < Proportional || c.Placement > Full:
		return fmt.Errorf("codedload: Placement = %d: unknown", int(c.Placement))
	case c.Requests < ExactN || c.Requests > Poissonized:
		return fmt.Errorf("codedload: Requests = %d: unknown", int(c.Requests))
	case c.Ties < TieRandom || c.Ties > TieLowest:
		return fmt.Errorf("codedload: Ties = %d: unknown", int(c.Ties))
	case c.Strategy == Coded && c.Ell < 1:
		return fmt.Errorf("codedload: Ell = %d: want ≥ 1", c.Ell)
	case c.Strategy != Coded && c.Ell != 0 && c.Ell != 1:
		return fmt.Errorf("codedload: Ell = %d: only the Coded strategy splits files (want 0 or 1 for %v)", c.Ell, c.Strategy)
	case c.ChunkCap < 0:
		return fmt.Errorf("codedload: ChunkCap (chnk_max) = %d: want ≥ 1, or 0 for no cap", c.ChunkCap)
	case c.Strategy == TwoChoice && c.Radius < 1:
		return fmt.Errorf("codedload: Radius = %d: want ≥ 1 for two choices (a)", c.Radius)
	case c.Strategy == TwoChoiceStretch && (!(c.Alpha >= 0) || math.IsInf(c.Alpha, 1)):
		return fmt.Errorf("codedload: Alpha = %v: want a finite value ≥ 0", c.Alpha)
	case c.Placement == Uniform && int64(n)*int64(c.Cache) < int64(c.Files):
		return fmt.Errorf("codedload: Cache = %d: uniform placement needs n·Cache ≥ Files = %d with n = %d", c.Cache, c.Files, n)
	}
	if slots := int64(c.Cache) * int64(c.ell()); slots > 1<<24 || int64(n)*slots > 1<<34 {
		return fmt.Errorf("codedload: Cache·Ell = %d slots per server on %d servers: too large", slots, n)
	}
	return nil
}

// checkTopology rejects the fields of a hand-built Torus, Grid or
// Hypercube that their constructors would refuse and on which Order or the
// searches would overflow int32 node indices or panic (a negative shift).
func checkTopology(t Topology) error {
	switch t := t.(type) {
	case *Torus:
		switch {
		case t == nil:
			return fmt.Errorf("codedload: Topology is a nil *Torus")
		case t.Side < 1 || t.Side > 46340: // 46340² < 2^31
			return fmt.Errorf("codedload: Torus.Side = %d: want 1 ≤ Side ≤ 46340", t.Side)
		case t.Metric != WrapExact && t.Metric != WrapLegacy:
			return fmt.Errorf("codedload: Torus.Metric = %d: unknown", int(t.Metric))
		}
	case *Grid:
		switch {
		case t == nil:
			return fmt.Errorf("codedload: Topology is a nil *Grid")
		case t.Rows < 1 || t.Cols < 1 || int64(t.Rows)*int64(t.Cols) > 1<<31-1:
			return fmt.Errorf("codedload: Grid Rows×Cols = %d×%d: want ≥ 1 each and fewer than 2^31 nodes", t.Rows, t.Cols)
		}
	case *Hypercube:
		switch {
		case t == nil:
			return fmt.Errorf("codedload: Topology is a nil *Hypercube")
		case t.Dim < 0 || t.Dim > 30:
			return fmt.Errorf("codedload: Hypercube.Dim = %d: want 0 ≤ Dim ≤ 30", t.Dim)
		}
	case *GraphTopology:
		if t == nil || t.g == nil {
			return fmt.Errorf("codedload: Topology is a nil *GraphTopology or one not made by FromGraph, NewRGG or NewRegular")
		}
	}
	return nil
}
