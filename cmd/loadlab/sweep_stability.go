package main

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/stability"
)

// sweepNetParams is an anycast.Network: demands a, the row-stochastic
// correlation matrix c (rows) and capacities t.
type sweepNetParams struct {
	A []float64   `json:"a"`
	C [][]float64 `json:"c"`
	T []float64   `json:"t"`
}

func (p sweepNetParams) network() (*anycast.Network, error) {
	n := len(p.C)
	if n == 0 {
		return nil, loadlab.Invalid("sweep", "params.network.c is empty")
	}
	data := make([]float64, 0, n*n)
	for i, row := range p.C {
		if len(row) != n {
			return nil, loadlab.Invalid("sweep", "params.network.c: row %d has %d entries, want %d (a square matrix)", i, len(row), n)
		}
		data = append(data, row...)
	}
	return anycast.NewNetwork(p.A, mat.NewDense(n, n, data), p.T)
}

// sweepODEParams are the integration settings of stability.Settings.
type sweepODEParams struct {
	AbsTol   float64 `json:"abs_tol"`
	RelTol   float64 `json:"rel_tol"`
	MaxSteps int     `json:"max_steps"`
	Direct   bool    `json:"direct"`
	Step     float64 `json:"step"`
}

func (o sweepODEParams) settings() (*stability.Settings, error) {
	s := &stability.Settings{AbsTol: o.AbsTol, RelTol: o.RelTol, MaxSteps: o.MaxSteps, Direct: o.Direct, Step: o.Step}
	return s, s.Validate()
}

// sweepAttractorsJob is "stability-attractors": Law.Attractors(runs, t1,
// seed, settings), run k being start k: Law.Attract(t1,
// loadlab.Stream(seed, k), settings), recorded as the equilibrium's
// state (no values for an unresolved start). The merge rebuilds each
// equilibrium from its state with Law.Linearize (the deterministic last
// step of the snap that found it) and groups them with
// stability.GroupAttractors.
type sweepAttractorsJob struct {
	l      *stability.Law
	t1     float64
	set    *stability.Settings
	seed   uint64
	starts int
}

func newSweepAttractors(params json.RawMessage, seed uint64, runs int) (sweepJob, error) {
	var p struct {
		Network     sweepNetParams `json:"network"`
		Sensitivity float64        `json:"sensitivity"` // β > 0
		T1          float64        `json:"t1"`          // integration time
		Settings    sweepODEParams `json:"settings"`
	}
	if err := sweepStrictParams(params, &p); err != nil {
		return nil, err
	}
	nw, err := p.Network.network()
	if err != nil {
		return nil, err
	}
	l, err := stability.NewLaw(nw, p.Sensitivity)
	if err != nil {
		return nil, err
	}
	set, err := p.Settings.settings()
	if err != nil {
		return nil, err
	}
	// Attractors' own validation (t1, sizes), without integrating.
	if _, _, err := l.Attractors(0, p.T1, seed, set); err != nil {
		return nil, err
	}
	return &sweepAttractorsJob{l: l, t1: p.T1, set: set, seed: seed, starts: runs}, nil
}

func (j *sweepAttractorsJob) Prefix() []uint64 { return nil }

// Run returns the state of the equilibrium start k reached, or no
// values if the start is unresolved.
func (j *sweepAttractorsJob) Run(k int) ([]float64, error) {
	e, err := j.l.Attract(j.t1, loadlab.Stream(j.seed, uint64(k)), j.set)
	if err != nil || e == nil {
		return nil, err
	}
	return e.X, nil
}

func (j *sweepAttractorsJob) Summarize(values [][]float64) (sweepTable, error) {
	ends := make([]*stability.Equilibrium, len(values))
	for k, v := range values {
		if len(v) == 0 {
			continue
		}
		e, err := j.l.Linearize(v)
		if err != nil {
			return sweepTable{}, fmt.Errorf("stability-attractors run %d: %w", k, err)
		}
		ends[k] = e
	}
	found, unresolved := stability.GroupAttractors(ends)
	return sweepAttractorTable(found, unresolved), nil
}

func (j *sweepAttractorsJob) Direct() (sweepTable, error) {
	found, unresolved, err := j.l.Attractors(j.starts, j.t1, j.seed, j.set)
	return sweepAttractorTable(found, unresolved), err
}

// sweepAttractorTable writes one row per attractor, most frequent first
// (face pattern, starts, class, uncontrollable, x), then the unresolved
// starts.
func sweepAttractorTable(found []stability.Attractor, unresolved int) sweepTable {
	t := sweepTable{Columns: []string{"pattern", "starts", "class", "uncontrollable", "x"}}
	for _, a := range found {
		var pat, xs strings.Builder
		for i, v := range a.X {
			switch v {
			case 0:
				pat.WriteByte('0')
			case 1:
				pat.WriteByte('1')
			default:
				pat.WriteByte('i')
			}
			if i > 0 {
				xs.WriteByte(' ')
			}
			xs.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
		}
		t.Rows = append(t.Rows, []any{pat.String(), a.Starts, a.Class.String(), a.Uncontrollable(), xs.String()})
	}
	return sweepTable{Columns: t.Columns, Rows: append(t.Rows, []any{"unresolved", unresolved, "", false, ""})}
}

// sweepMapJob is "stability-map": stability.TwoNodeMap over the grid
// aa × ab, run k being cell k (row-major). The cells are deterministic;
// the seed only names the sweep.
type sweepMapJob struct {
	nw     *anycast.Network
	aa, ab []float64
	set    *stability.MapSettings
}

func newSweepTwoNodeMap(params json.RawMessage, _ uint64, runs int) (sweepJob, error) {
	var p struct {
		Network     sweepNetParams `json:"network"` // its a is replaced by the grid ([1, 1] if omitted)
		AA          []float64      `json:"aa"`
		AB          []float64      `json:"ab"`
		Sensitivity float64        `json:"sensitivity"`
		Start       [2]float64     `json:"start"`
		Horizon     float64        `json:"horizon"`
	}
	if err := sweepStrictParams(params, &p); err != nil {
		return nil, err
	}
	if p.Network.A == nil {
		p.Network.A = []float64{1, 1}
	}
	nw, err := p.Network.network()
	if err != nil {
		return nil, err
	}
	j := &sweepMapJob{nw: nw, aa: p.AA, ab: p.AB, set: &stability.MapSettings{Sensitivity: p.Sensitivity, Start: p.Start, Horizon: p.Horizon}}
	if len(p.AA) == 0 || len(p.AB) == 0 {
		return nil, loadlab.Invalid("sweep", "params: aa and ab need at least one demand each")
	}
	if cells := len(p.AA) * len(p.AB); runs != cells {
		return nil, loadlab.Invalid("sweep", "runs = %d, want the %d cells of the %d×%d grid", runs, cells, len(p.AA), len(p.AB))
	}
	for k, as := range [][]float64{p.AA, p.AB} {
		for i, a := range as {
			if !(a >= 0) || math.IsInf(a, 1) {
				return nil, loadlab.Invalid("sweep", "params.%s[%d] = %v, want a finite demand ≥ 0", []string{"aa", "ab"}[k], i, a)
			}
		}
	}
	// The network (N = 2) and the settings, without integrating.
	if _, err := stability.TwoNodeMap(nw, nil, nil, j.set); err != nil {
		return nil, err
	}
	return j, nil
}

func (j *sweepMapJob) Prefix() []uint64 { return nil }

// Run returns the cell's outcome, TwoNodeMap on the cell's 1×1 grid
// (one worker: the shards are the parallelism): the flags as 0/1, then
// Final and Excess.
func (j *sweepMapJob) Run(k int) ([]float64, error) {
	one := *j.set
	one.Workers = 1
	p, q := k/len(j.ab), k%len(j.ab)
	out, err := stability.TwoNodeMap(j.nw, j.aa[p:p+1], j.ab[q:q+1], &one)
	if err != nil {
		return nil, err
	}
	o := out[0]
	b := func(v bool) float64 {
		if v {
			return 1
		}
		return 0
	}
	return []float64{b(o.InPolytope), b(o.InExtended), b(o.Possible), b(o.Reached), o.Final[0], o.Final[1], o.Excess}, nil
}

func (j *sweepMapJob) Summarize(values [][]float64) (sweepTable, error) {
	if err := sweepCheckWidths("stability-map", values, 7); err != nil {
		return sweepTable{}, err
	}
	out := make([]stability.Outcome, len(values))
	for k, v := range values {
		out[k] = stability.Outcome{A: [2]float64{j.aa[k/len(j.ab)], j.ab[k%len(j.ab)]},
			InPolytope: v[0] == 1, InExtended: v[1] == 1, Possible: v[2] == 1, Reached: v[3] == 1,
			Final: [2]float64{v[4], v[5]}, Excess: v[6]}
	}
	return sweepMapTable(out), nil
}

func (j *sweepMapJob) Direct() (sweepTable, error) {
	out, err := stability.TwoNodeMap(j.nw, j.aa, j.ab, j.set)
	return sweepMapTable(out), err
}

func sweepMapTable(out []stability.Outcome) sweepTable {
	t := sweepTable{Columns: []string{"a_a", "a_b", "in_polytope", "in_extended", "possible", "reached", "final_a", "final_b", "excess"}}
	for _, o := range out {
		t.Rows = append(t.Rows, []any{o.A[0], o.A[1], o.InPolytope, o.InExtended, o.Possible, o.Reached, o.Final[0], o.Final[1], o.Excess})
	}
	return t
}
