package codedload

import (
	"fmt"
	"math"
	"reflect"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"
)

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
	// TieListOrder chooses the copies that come first in the holder list
	// the reference simulator builds while placing (spec §4, §5): the
	// copies dealt by Uniform placement first, in the order they were
	// dealt, then the other copies by server index; a capped server keeps
	// its first ChunkCap copies of that list. Proportional and Full
	// placements list holders by server index, so there TieListOrder is
	// TieLowest for the choice of copies. Equal loads in a two-choice
	// comparison are decided by a fair coin, as in the reference
	// simulator. See the package documentation for which rule reproduces
	// which of the simulator's numbers.
	TieListOrder
)

var tieNames = [...]string{"random", "lowest index", "list order"}

// String returns a short name for r.
func (r TieRule) String() string {
	if r < 0 || int(r) >= len(tieNames) {
		return fmt.Sprintf("TieRule(%d)", int(r))
	}
	return tieNames[r]
}

// Config is one simulation setting: the shared model (topology, library,
// caches, popularity, placement, arrivals, tie rule) and the delivery
// strategy, which carries its own parameters. The zero values of Placement,
// Requests and Ties select proportional placement, exactly n requests and
// random tie-breaking; a nil Strategy means NearestReplica{}.
type Config struct {
	// Topology is the network of n servers. Required.
	Topology Topology
	// Files is the library size K ≥ 1.
	Files int
	// Cache is the cache size M ≥ 1 of each server, in files.
	Cache int
	// Gamma is the Zipf exponent γ ≥ 0 of the popularity law (0: uniform).
	Gamma float64
	// Strategy is the delivery strategy with its parameters; nil means
	// NearestReplica{}.
	Strategy Strategy
	// Placement, Requests and Ties select the variants above.
	Placement PlacementKind
	Requests  RequestMode
	Ties      TieRule
	// KeepLoads asks Run to return every server's load in Result.Loads.
	KeepLoads bool
}

// strategy returns the parameters of c.Strategy (NearestReplica for nil).
// c must be valid.
func (c *Config) strategy() strategySpec {
	if c.Strategy == nil {
		return NearestReplica{}.spec()
	}
	return c.Strategy.spec()
}

// Limits on the sizes of one run, checked by Config.Validate: node and file
// indices are int32, and one server's slots are drawn into one buffer.
const (
	maxIndex     = 1<<31 - 1         // nodes, files
	maxSlots     = 1 << 24           // Cache·Ell per server
	maxDraws     = 1 << 34           // n·Cache·Ell placement draws per run
	entryBytes   = 4 + 4 + 4         // per (server, file) entry: file, count, holder list
	perFileBytes = 8 + 8 + 8 + 4 + 1 // + Coded.Field: whether the file's copies span
)

// Validate returns an error naming the first invalid field of c, or nil.
// Bad values wrap loadlab.ErrInvalid; sizes whose products overflow or
// exceed the memory budget of internal/size (n·Cache·Ell slots, Files·Ell
// dealt chunks, the per-file tables) wrap loadlab.ErrTooLarge.
func (c *Config) Validate() error {
	if err := validateTopology(c.Topology); err != nil {
		return err
	}
	if err := c.validateModel(); err != nil {
		return err
	}
	if err := validateStrategy(c.Strategy); err != nil {
		return err
	}
	return c.validateSizes()
}

// validateModel checks the fields shared by every strategy.
func (c *Config) validateModel() error {
	switch {
	case c.Files < 1:
		return loadlab.Invalid(pkg, "Config.Files = %d, want ≥ 1", c.Files)
	case c.Files > maxIndex:
		return loadlab.TooLarge(pkg, "Config.Files = %d, want < 2^31", c.Files)
	case c.Cache < 1:
		return loadlab.Invalid(pkg, "Config.Cache = %d, want ≥ 1", c.Cache)
	case !(c.Gamma >= 0) || math.IsInf(c.Gamma, 1):
		return loadlab.Invalid(pkg, "Config.Gamma = %v, want a finite value ≥ 0", c.Gamma)
	case c.Placement < Proportional || c.Placement > Full:
		return loadlab.Invalid(pkg, "Config.Placement = %d, unknown", int(c.Placement))
	case c.Requests < ExactN || c.Requests > Poissonized:
		return loadlab.Invalid(pkg, "Config.Requests = %d, unknown", int(c.Requests))
	case c.Ties < TieRandom || c.Ties > TieListOrder:
		return loadlab.Invalid(pkg, "Config.Ties = %d, unknown", int(c.Ties))
	}
	return nil
}

// validateStrategy rejects a nil pointer stored in the interface and the
// strategy's own invalid parameters.
func validateStrategy(s Strategy) error {
	if s == nil {
		return nil
	}
	if v := reflect.ValueOf(s); v.Kind() == reflect.Pointer && v.IsNil() {
		return loadlab.Invalid(pkg, "Config.Strategy is a nil %T", s)
	}
	return s.Validate()
}

// validateSizes checks, overflow-safe, every size one run allocates.
func (c *Config) validateSizes() error {
	n, sp := c.Topology.Order(), c.strategy()
	slots, ok := size.Mul(c.Cache, sp.ell)
	if !ok || slots > maxSlots {
		return loadlab.TooLarge(pkg, "Config.Cache·Ell = %d·%d slots per server, want ≤ 2^24", c.Cache, sp.ell)
	}
	if draws, ok := size.Mul(n, slots); !ok || draws > maxDraws {
		return loadlab.TooLarge(pkg, "n·Cache·Ell = %d·%d placement draws, want ≤ 2^34", n, slots)
	}
	if err := size.Check(pkg, "Config.Files", c.Files, perFileBytes); err != nil {
		return err
	}
	if err := size.Check(pkg, "cache entries n·min(Cache·Ell, Files)", n*min(slots, c.Files), entryBytes); err != nil {
		return err
	}
	if sp.field != 0 {
		// Real decoding: an ℓ×ℓ basis per file while the run finds the
		// files whose copies span, and one per request.
		if b, ok := size.Product(c.Files+1, sp.ell, sp.ell+1); !ok || b > size.MaxBytes {
			return loadlab.TooLarge(pkg, "Coded.Field: the decoding bases (Files + 1)·ℓ·(ℓ+1) = %d·%d·%d bytes, want ≤ %d GiB", c.Files+1, sp.ell, sp.ell+1, size.MaxBytes>>30)
		}
	}
	if c.Placement != Uniform {
		return nil
	}
	if err := size.Check(pkg, "dealt chunks Files·Ell", c.Files*sp.ell, 4); err != nil {
		return err // Files < 2^31 and Ell < 2^24: the product fits an int
	}
	if total := n * c.Cache; total < c.Files { // n < 2^31, Cache < 2^24
		return loadlab.Invalid(pkg, "Config.Cache = %d, uniform placement needs n·Cache ≥ Files = %d with n = %d", c.Cache, c.Files, n)
	}
	return nil
}

// validateTopology rejects a nil topology and the fields of a hand-built
// Torus, Grid or Hypercube that their constructors would refuse.
func validateTopology(t Topology) error {
	if t == nil {
		return loadlab.Invalid(pkg, "Config.Topology is nil")
	}
	if v := reflect.ValueOf(t); v.Kind() == reflect.Pointer && v.IsNil() {
		return loadlab.Invalid(pkg, "Config.Topology is a nil %T", t)
	}
	if g, ok := t.(*GraphTopology); ok && g.g == nil {
		return loadlab.Invalid(pkg, "Config.Topology is a GraphTopology not made by FromGraph, NewRGG or NewRegular")
	}
	if v, ok := t.(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			return err
		}
	}
	if n := t.Order(); n < 1 || n > maxIndex {
		return loadlab.Invalid(pkg, "Config.Topology has %d nodes, want 1 ≤ n < 2^31", n)
	}
	return nil
}
