package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/loadlab/loadlab/competitive"
)

// alphaFlags are the flags of "nomadic alpha".
type alphaFlags struct {
	ks               []int
	alphas, betas    []float64
	policy, workload string
	runs             int
	base             competitive.AlphaPoint
}

func (a *app) nomadicAlphaCommand() *cobra.Command {
	var f alphaFlags
	c := &cobra.Command{
		Use:   "alpha",
		Short: "DTrack's ratio against its threshold α (and DTrack-B's β): adversary, random workloads, bound",
		Long: `The α/β study of spec nomadic §15. For every k of --k, α of --alpha and
(with --policy B) β of --beta, runs DTrack against the adaptive adversary
built for it (spec §6.1, ε = --eps·C) and on --runs random instances of
--slots slots (--workload sticky: one free server that changes with
probability 1/--persist per slot, the others uniform on [0, --spread·C);
uniform: every cost uniform on [0, --spread·C)), and reports the
adversary's ratio, the mean random ratio cost/OPT with its 95 % interval,
the never-migrate baseline's mean ratio on the same instances, and, for
DTrack-RR (and DTrack-B with β = -inf), the bound U(α) = max{k(1 + 1/α),
(k − 1)α + k} and the adversary's limit L(α) = max{k(1 + 1/α),
(k − 1)(1 + α)}. U is least at α* = √(k/(k − 1)), not at α = 1, where
the ratio is exactly 2k (spec §15.4). Run r of point i draws from
loadlab.Stream(--seed, i, r); shard large studies with "loadlab sweep"
(sweep "nomadic-alpha").`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := a.checkOutputs(); err != nil {
				return err
			}
			points, err := f.points()
			if err != nil {
				return err
			}
			p := a.startProgress(-1, "alpha study")
			sums, err := competitive.AlphaStudy(points, f.runs, a.seed)
			p.done()
			if err != nil {
				return err
			}
			return a.emit(alphaAnswer(sums))
		},
	}
	fl := c.Flags()
	fl.IntSliceVar(&f.ks, "k", []int{2, 3, 5}, "servers k (comma-separated, each ≥ 2)")
	fl.Float64SliceVar(&f.alphas, "alpha", []float64{0.5, 0.75, 1, 1.25, 1.5, 2, 3}, "thresholds α > 0 (comma-separated)")
	fl.Float64SliceVar(&f.betas, "beta", []float64{0}, "with --policy B: eligibility factors β ≤ α (comma-separated; -inf for DTrack-RR's choice)")
	fl.StringVar(&f.policy, "policy", "RR", "transition policy: RR, F or B")
	fl.StringVar(&f.workload, "workload", "sticky", "random workload: sticky or uniform")
	fl.IntVar(&f.runs, "runs", 100, "random instances per point (≥ 2)")
	fl.IntVar(&f.base.Slots, "slots", 200, "slots T of a random instance")
	fl.Float64Var(&f.base.Setup, "setup", 10, "setup cost C")
	fl.Float64Var(&f.base.Spread, "spread", 1, "hold costs drawn on [0, spread·C)")
	fl.Float64Var(&f.base.Persist, "persist", 20, "sticky workload: mean slots the free server lasts (≥ 1)")
	fl.Float64Var(&f.base.Eps, "eps", 1.0/16, "adversary's hold cost ε as a fraction of C, in (0, 1]")
	fl.IntVar(&f.base.AdversarySlots, "adversary-slots", 0, "adversary's horizon in slots (0: 100 cycles of DTrack-RR)")
	return c
}

// points expands the flags into the study's points.
func (f *alphaFlags) points() ([]competitive.AlphaPoint, error) {
	base := f.base
	switch strings.ToUpper(f.policy) {
	case "RR":
		base.Policy = competitive.RoundRobin
	case "F":
		base.Policy = competitive.Forward
	case "B":
		base.Policy = competitive.Backward
	default:
		return nil, usagef("--policy %q: want RR, F or B", f.policy)
	}
	switch strings.ToLower(f.workload) {
	case "sticky":
		base.Workload = competitive.Sticky
	case "uniform":
		base.Workload = competitive.Uniform
	default:
		return nil, usagef("--workload %q: want sticky or uniform", f.workload)
	}
	if len(f.ks) == 0 || len(f.alphas) == 0 {
		return nil, usagef("--k and --alpha need at least one value each")
	}
	betas := f.betas
	if base.Policy != competitive.Backward || len(betas) == 0 {
		betas = []float64{0}
	}
	var pts []competitive.AlphaPoint
	for _, k := range f.ks {
		for _, al := range f.alphas {
			if al == 0 { // 0 would mean the default α = 1
				return nil, usagef("--alpha 0: want α > 0")
			}
			for _, b := range betas {
				p := base
				p.Servers, p.Alpha, p.Beta = k, al, b
				pts = append(pts, p)
			}
		}
	}
	return pts, nil
}

// alphaValue is a point of the JSON answer (β as text: −∞ has no JSON
// number).
type alphaValue struct {
	K            int     `json:"k"`
	Alpha        float64 `json:"alpha"`
	Policy       string  `json:"policy"`
	Beta         string  `json:"beta,omitempty"`
	Bound        float64 `json:"bound,omitempty"`
	Limit        float64 `json:"adversary_limit,omitempty"`
	Adversary    float64 `json:"adversary"`
	Random       any     `json:"random"`
	RandomMax    float64 `json:"random_max"`
	NeverMigrate any     `json:"never_migrate"`
}

func alphaAnswer(sums []competitive.AlphaSummary) *answer {
	t := &table{name: "points", cols: []string{"k", "alpha", "policy", "beta", "bound U", "limit L",
		"adversary", "random mean", "lo", "hi", "random max", "never migrate"}}
	vals := make([]alphaValue, len(sums))
	curves := map[int]*series{}
	var order []int
	for i, s := range sums {
		pt := s.Point
		beta := ""
		if pt.Policy == competitive.Backward {
			beta = fmt.Sprint(pt.Beta)
		}
		bound, limit := any("none"), any("none")
		if s.Bounded {
			bound, limit = s.Bound, s.Limit
		}
		t.add(pt.Servers, pt.Alpha, pt.Policy.String(), beta, bound, limit, s.Adversary,
			s.Random.Mean, s.Random.Lo, s.Random.Hi, s.RandomMax, s.NeverMigrate.Mean)
		vals[i] = alphaValue{K: pt.Servers, Alpha: pt.Alpha, Policy: pt.Policy.String(), Beta: beta,
			Adversary: s.Adversary, Random: s.Random, RandomMax: s.RandomMax, NeverMigrate: s.NeverMigrate}
		if s.Bounded {
			vals[i].Bound, vals[i].Limit = s.Bound, s.Limit
		}
		c, ok := curves[pt.Servers]
		if !ok {
			c = &series{name: fmt.Sprintf("adversary, k = %d", pt.Servers), line: true}
			curves[pt.Servers] = c
			order = append(order, pt.Servers)
		}
		c.xs, c.ys = append(c.xs, pt.Alpha), append(c.ys, s.Adversary)
	}
	var ss []series
	var notes []string
	for _, k := range order {
		ss = append(ss, *curves[k])
		a, b, _ := competitive.BestAlpha(k)
		notes = append(notes, fmt.Sprintf("k = %d: the bound U is least at α* = √(k/(k−1)) = %.4g, U(α*) = %.4g < U(1) = %d; DTrack-RR's ratio at α = 1 is exactly 2k = %d (spec §15.3).", k, a, b, 2*k, 2*k))
	}
	notes = append(notes, fmt.Sprintf("%d random instances per point; intervals are 95 %% Student t over instances; \"none\": no bound is known for this policy (spec §15.5).", sums[0].Random.N))
	return &answer{tables: []*table{t}, value: vals, notes: notes,
		draw: pointsPicture("DTrack against the adversary built for it", "threshold α", "cost / optimal cost", true, ss...)}
}
