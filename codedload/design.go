package codedload

import (
	"cmp"
	"math"

	"github.com/loadlab/loadlab"
)

// Design asks for the cheapest coded setting (ℓ, chunk cap) whose maximum
// load meets a target (spec §12.5). The zero value of each optional field
// is its default.
type Design struct {
	// Target is the maximum load to meet, in files per server (> 0): a
	// candidate meets it when the upper end of the 95 % interval of its
	// mean maximum load is ≤ Target.
	Target float64
	// Ells are the candidate piece counts ℓ ≥ 1; nil means 1, 2, …, 20.
	Ells []int
	// Caps are the candidate chunk caps (Coded.ChunkCap, 0 = no cap); nil
	// means {0, 1}.
	Caps []int
	// ChunkPrice ≥ 0 is the price, in hops, of fetching one chunk (a
	// connection, a decoding share): a candidate costs Cost + ChunkPrice·ℓ.
	// With 0 the cost is the communication cost alone and ties go to the
	// smaller ℓ.
	ChunkPrice float64
	// Runs ≥ 2 is the number of runs per candidate; 0 means 20.
	Runs int
}

// Validate returns an error naming the first invalid field, or nil.
func (d *Design) Validate() error {
	switch {
	case !(d.Target > 0) || math.IsInf(d.Target, 1):
		return loadlab.Invalid(pkg, "Design.Target = %v, want a finite value > 0", d.Target)
	case !(d.ChunkPrice >= 0) || math.IsInf(d.ChunkPrice, 1):
		return loadlab.Invalid(pkg, "Design.ChunkPrice = %v, want a finite value ≥ 0", d.ChunkPrice)
	case d.Runs < 0 || d.Runs == 1:
		return loadlab.Invalid(pkg, "Design.Runs = %d, want ≥ 2 (0: 20)", d.Runs)
	case d.Ells != nil && len(d.Ells) == 0:
		return loadlab.Invalid(pkg, "Design.Ells = [], want candidates (nil: 1…20)")
	case d.Caps != nil && len(d.Caps) == 0:
		return loadlab.Invalid(pkg, "Design.Caps = [], want candidates (nil: 0, 1)")
	}
	for i, l := range d.Ells {
		if l < 1 {
			return loadlab.Invalid(pkg, "Design.Ells[%d] = %d, want ≥ 1", i, l)
		}
	}
	for i, c := range d.Caps {
		if c < 0 {
			return loadlab.Invalid(pkg, "Design.Caps[%d] = %d, want ≥ 0 (0: no cap)", i, c)
		}
	}
	return nil
}

// DesignCandidate is one (ℓ, cap) of the grid with its estimates.
type DesignCandidate struct {
	Ell, ChunkCap int
	MaxLoad, Cost loadlab.Estimate
	// ExactCost is the cost of spec §6.3 where it is exact (no cap,
	// proportional placement, a torus with the exact metric or a
	// hypercube); NaN elsewhere.
	ExactCost float64
	// Price is ExactCost (or Cost.Mean where it is NaN) + ChunkPrice·ℓ.
	Price float64
	// Meets reports MaxLoad.Hi ≤ Target.
	Meets bool
}

// DesignResult holds every candidate, in the order of the grid (Ells
// major), and the index of the chosen one: the candidate that meets the
// target at the least price (ties: smaller ℓ, then smaller cap), or −1 if
// none does.
type DesignResult struct {
	Candidates []DesignCandidate
	Best       int
}

// DesignCoded runs base with Coded{Ell, ChunkCap} for every candidate of
// the grid d.Ells × d.Caps (d.Runs runs each, as one Sweep: candidate i,
// run r on loadlab.Stream(seed, i, r, ·)) and chooses the cheapest that
// meets d.Target (spec §12.5). base's Strategy is replaced. Errors: those
// of d.Validate, of base.Validate for a candidate (with Topology required),
// and of Sweep.
func DesignCoded(base Config, d Design, seed uint64, set *SweepSettings) (*DesignResult, error) {
	if err := d.Validate(); err != nil {
		return nil, err
	}
	ells, caps, runs := d.Ells, d.Caps, d.Runs
	if ells == nil {
		ells = []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}
	}
	if caps == nil {
		caps = []int{0, 1}
	}
	if runs == 0 {
		runs = 20
	}
	var pts []Point
	var cands []DesignCandidate
	for _, l := range ells {
		for _, c := range caps {
			cfg := base
			cfg.Strategy = Coded{Ell: l, ChunkCap: c}
			pts = append(pts, Point{X: float64(l), Config: cfg})
			cands = append(cands, DesignCandidate{Ell: l, ChunkCap: c, ExactCost: math.NaN()})
		}
	}
	res, err := Sweep(pts, runs, seed, set)
	if res == nil {
		return nil, err
	}
	out := &DesignResult{Candidates: cands, Best: -1}
	for i := range cands {
		c := &cands[i]
		c.MaxLoad, c.Cost = res[i].MaxLoad, res[i].Cost
		cost := c.Cost.Mean
		if x, ok := exactCost(pts[i].Config, c.Ell, c.ChunkCap); ok {
			c.ExactCost, cost = x, x
		}
		c.Price = cost + d.ChunkPrice*float64(c.Ell)
		c.Meets = c.MaxLoad.Hi <= d.Target
		if c.Meets && (out.Best < 0 || better(*c, cands[out.Best])) {
			out.Best = i
		}
	}
	return out, err
}

// better orders candidates by price, then ℓ, then cap.
func better(a, b DesignCandidate) bool {
	return cmp.Or(cmp.Compare(a.Price, b.Price), cmp.Compare(a.Ell, b.Ell), cmp.Compare(a.ChunkCap, b.ChunkCap)) < 0
}

// exactCost returns the cost of spec §6.3 for cfg with ℓ and no cap on a
// vertex-transitive topology with proportional placement.
func exactCost(cfg Config, ell, capv int) (float64, bool) {
	if capv != 0 || cfg.Placement != Proportional {
		return 0, false
	}
	var balls []int
	switch t := cfg.Topology.(type) {
	case *Torus:
		if t.Metric != WrapExact {
			return 0, false
		}
		balls = t.Balls()
	case *Hypercube:
		balls = t.Balls()
	default:
		return 0, false
	}
	p, err := ZipfPMF(cfg.Files, cfg.Gamma)
	if err != nil {
		return 0, false
	}
	x, err := Cost(p, cfg.Cache, ell, balls)
	return x, err == nil
}
