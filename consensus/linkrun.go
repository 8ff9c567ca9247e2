package consensus

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/estimate"
	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/internal/par"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/laplacian"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
	"gonum.org/v1/gonum/mat"
)

// linkRun is the state of AddLinks: the sketches (node-major, zt[i·m+j]
// is row j of Z at node i), the product form of L_k†, and the confirmed
// candidates.
type linkRun struct {
	g     *wgraph.Graph
	n, k  int
	cands []wgraph.Edge
	set   LinkSettings
	exact bool
	m, my int       // rows of Z and of the resistance sketch Y
	zt    []float64 // Z = Q L† (Q = I in LinkExact: Z = L†)
	yt    []float64 // Y = Q' W^{1/2} B L† (LinkSketch)
	sol   *laplacian.Solver
	rng   *rand.Rand
	xs    [][]float64 // product form: L_k† = L† − Σ c_i x_i x_iᵀ
	cs    []float64
	pool  map[int][]float64 // confirmed candidates' x = L_k† b
	used  []bool
	added []bool // the candidates chosen, by index
	order []int  // the candidates chosen, in order
	l2lo  float64
	lower float64 // the best lower bound on the optimum met so far
	out   *LinkResult
	// lazy screening (LinkSketch): the heap of last scores, the entries
	// taken at this step, the count of re-scores
	heap     lazyHeap
	fresh    []lazyEntry
	rescored int
	// the certificate's sketch: Σ_j ‖ρ_j‖² of its columns on the input
	// graph and on the answer's, and the error bounds of ‖Ẑb‖ they give
	res0, resk, sk0, skk float64
	// its control variate (nil where the local polynomials do not fit)
	cv *linkCV
	// the screening's control variate (nil where they do not fit)
	scv *screenCV
	// the ρ₂ part (LinkRho2 on the sketch path), nil otherwise
	rho *rhoSketch
	// the ρ₂* part (LinkRho2Star on the sketch path), nil otherwise, and
	// the candidates it refused
	star        *starSketch
	refusedStar int
}

// newLinkRun builds L† (LinkExact) or the solver and both sketches.
func newLinkRun(g *wgraph.Graph, cands []wgraph.Edge, k int, set LinkSettings, src rand.Source) (*linkRun, error) {
	n := g.Order()
	r := &linkRun{g: g, n: n, k: k, cands: cands, set: set, exact: set.Method == LinkExact,
		pool: map[int][]float64{}, used: make([]bool, len(cands)), added: make([]bool, len(cands)),
		out: &LinkResult{Method: set.Method, Confidence: 1}}
	if r.exact {
		if err := size.CheckDense("consensus", "AddLinks (LinkExact)", n, 2); err != nil {
			return nil, err
		}
		lp, err := spectral.PseudoInverse(g)
		if err != nil {
			return nil, err
		}
		r.m, r.zt = n, make([]float64, n*n)
		for i := range n {
			for j := range n {
				r.zt[i*n+j] = lp.At(i, j)
			}
		}
		kf := float64(n) * mat.Trace(lp) // K_f = n tr L† (spec §2)
		r.out.Before = loadlab.Estimate{Mean: kf, Lo: kf, Hi: kf}
		return r, nil
	}
	r.rng = rand.New(src)
	if len(cands) > math.MaxInt32 {
		return nil, loadlab.TooLarge("consensus", "AddLinks: %d candidates, at most %d in LinkSketch", len(cands), math.MaxInt32)
	}
	if err := size.Check("consensus", "AddLinks: sketch entries", n, 8*(2*set.Sketch+set.Pool+k+1)); err != nil {
		return nil, err
	}
	if err := size.Check("consensus", "AddLinks: screening heap", len(cands), 16); err != nil {
		return nil, err
	}
	sol, err := laplacian.NewSolver(g, set.Solver, src)
	if err != nil {
		return nil, err
	}
	r.sol = sol
	switch set.Objective {
	case LinkRho2:
		r.rho = &rhoSketch{gamma: set.Gamma}
	case LinkRho2Star:
		r.star = &starSketch{}
	}
	if err := r.startSketch(src); err != nil {
		return nil, err
	}
	var err2 error
	switch {
	case r.rho != nil:
		err2 = r.startRho()
	case r.star != nil:
		err2 = r.startStar()
	}
	if err2 != nil {
		return nil, err2
	}
	if err := r.startScreenCV(); err != nil {
		return nil, err
	}
	r.l2lo = lambda2Lower(g)
	r.initLazy()
	return r, nil
}

// startSketch estimates K_f of g and solves for the screening sketches.
func (r *linkRun) startSketch(src rand.Source) error {
	if r.rho == nil && r.star == nil { // the ρ₂ objectives estimate ρ₂ instead (startRho, startStar)
		tol := r.sol.Settings().Tol
		if err := r.sol.SetTol(max(tol, estimate.DefaultTraceSolveTol)); err != nil {
			return err
		}
		tr, err := estimate.KirchhoffWithSolver(r.sol, r.set.Trace, src)
		if err != nil {
			return err
		}
		r.out.Before, r.out.Solves = tr.Estimate, tr.Solves
		if err := r.sol.SetTol(tol); err != nil {
			return err
		}
	}
	var err error
	m, n := r.set.Sketch, r.n
	r.m, r.my = m, m
	q := mat.NewDense(n, m, nil) // Qᵀ: Rademacher/√m
	qd := q.RawMatrix().Data
	s := 1 / math.Sqrt(float64(m))
	for i := range qd {
		qd[i] = s * rademacher(r.rng)
	}
	if r.zt, err = r.blockSolve(q); err != nil {
		return err
	}
	pl, fits, err := screenPlan(r.g)
	if err != nil {
		return err
	}
	if fits { // R from Z and Q, no resistance sketch (spec §13.13, "Screening control variate")
		r.scv = &screenCV{pl: pl, m: m, qs: qd}
		r.skipDraws(len(r.g.Edges()) * m) // Y's draws: later draws as without the control variate
		r.my = 0
		if r.star != nil {
			r.star.s = qd
		}
		return nil
	}
	if r.star != nil { // the ρ₂* sketches of Q share Z's rows (spec §13.17)
		r.star.s = append([]float64(nil), qd...)
	}
	q.Zero() // Bᵀ W^{1/2} Q'ᵀ, one Rademacher entry per edge and row
	for _, e := range r.g.Edges() {
		sw := math.Sqrt(e.W) * s
		ru, rv := qd[e.U*m:(e.U+1)*m], qd[e.V*m:(e.V+1)*m]
		for j := range m {
			v := sw * rademacher(r.rng)
			ru[j] += v
			rv[j] -= v
		}
	}
	r.yt, err = r.blockSolve(q)
	return err
}

// blockSolve returns L† b for the columns of b, node-major.
func (r *linkRun) blockSolve(b *mat.Dense) ([]float64, error) {
	n, m := b.Dims()
	x := mat.NewDense(n, m, nil)
	if _, err := r.sol.SolveBlock(x, b); err != nil {
		return nil, err
	}
	r.out.Solves += m
	return x.RawMatrix().Data, nil
}

// skipDraws draws k Rademacher signs and drops them: the control
// variate's path skips the resistance sketch Y but keeps the later draws
// (the re-tunes' probes) those of the path without it, so that the two
// differ only by the screening.
func (r *linkRun) skipDraws(k int) {
	for range k {
		r.rng.Uint64()
	}
}

func rademacher(rng *rand.Rand) float64 {
	if rng.Uint64()&1 == 0 {
		return -1
	}
	return 1
}

// lambda2Lower is Mohar's bound λ₂ ≥ 4 w_min/(n D) with D ≤ 2 ecc(0)
// (spec §13.13).
func lambda2Lower(g *wgraph.Graph) float64 {
	n := g.Order()
	wmin := math.Inf(1)
	off, adj, w := g.CSR()
	for _, x := range w {
		wmin = min(wmin, x)
	}
	dist := make([]int32, n)
	for i := range dist {
		dist[i] = -1
	}
	dist[0] = 0
	queue, ecc := []int32{0}, int32(0)
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		ecc = max(ecc, dist[u])
		for _, v := range adj[off[u]:off[u+1]] {
			if dist[v] < 0 {
				dist[v] = dist[u] + 1
				queue = append(queue, v)
			}
		}
	}
	return 4 * wmin / (float64(n) * float64(2*max(ecc, 1)))
}

// run adds the k links and certifies the result.
func (r *linkRun) run() (*LinkResult, error) {
	b := r.g.Builder()
	var total loadlab.Estimate
	r.lower = math.Inf(-1)
	for range r.k {
		if r.exact { // the relaxation's bound at each greedy iterate, spec §13.13
			r.lower = max(r.lower, r.out.Before.Mean-total.Mean-r.linTerm())
		}
		i, x, err := r.choose()
		if err != nil {
			return nil, err
		}
		c := r.cands[i]
		w := r.linkWeight(c)
		gain := r.gain(w, x, c)
		r.out.Steps = append(r.out.Steps, LinkStep{Link: wgraph.Edge{U: c.U, V: c.V, W: w}, Gain: gain})
		total.Mean += gain.Mean
		total.Lo += gain.Lo
		total.Hi += gain.Hi
		r.apply(i, x)
		if !r.exact {
			r.restoreLazy(i)
		}
		mustSet(b, c.U, c.V, r.g.Weight(c.U, c.V)+w)
	}
	r.out.Graph = b.Build()
	bf := r.out.Before
	r.out.After = loadlab.Estimate{Mean: bf.Mean - total.Mean, Lo: bf.Lo - total.Hi, Hi: bf.Hi - total.Lo,
		StdErr: bf.StdErr, N: bf.N}
	if !r.exact { // the screening state is not needed by the certificate
		r.zt, r.yt, r.heap, r.pool = nil, nil, nil, nil
		r.dropScreen()
	}
	if err := r.certify(); err != nil {
		return nil, err
	}
	r.out.Lower = min(r.lower, r.out.After.Lo)
	r.out.Gap = r.out.After.Lo - r.out.Lower
	r.out.Rescored = r.rescored
	return r.out, nil
}

// xErr bounds ‖x − L_k†b‖₂ for a confirmed x of candidate c a
// posteriori (spec §13.13): x is projected onto 1⊥, and the residual
// ρ = b − L_k x, with L_k = L + Σ_i W_i b_i b_iᵀ applied in O(|E| + k),
// gives ‖x − L_k†b‖ ≤ ‖ρ‖/λ₂(L_k) ≤ ‖ρ‖/λ₂lo (adding links does not
// lower λ₂). It is 0 in LinkExact.
func (r *linkRun) xErr(x []float64, c wgraph.Edge) float64 {
	if r.exact {
		return 0
	}
	mean := 0.0
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	for i := range x {
		x[i] -= mean
	}
	lx := make([]float64, len(x))
	r.sol.Operator().Apply(lx, x)
	for _, s := range r.out.Steps {
		d := s.Link.W * (x[s.Link.U] - x[s.Link.V])
		lx[s.Link.U] += d
		lx[s.Link.V] -= d
	}
	lx[c.U] -= 1
	lx[c.V] += 1
	return math.Sqrt(dense.Dot(lx, lx)) / r.l2lo
}

// gain returns the decrease of K_f for adding c (weight w) with x = L†b,
// its interval from xErr (the error bound e of x).
func (r *linkRun) gain(w float64, x []float64, c wgraph.Edge) loadlab.Estimate {
	e := r.xErr(x, c)
	nx := math.Sqrt(dense.Dot(x, x))
	res := x[c.U] - x[c.V]
	n := float64(r.n)
	f := func(nx, res float64) float64 { return n * w * nx * nx / (1 + w*res) } // spec §5.2
	return loadlab.Estimate{Mean: f(nx, res), Lo: f(max(nx-e, 0), res+math.Sqrt2*e), Hi: f(nx+e, max(res-math.Sqrt2*e, 0))}
}

// score is the screened gain (trace units) of candidate i.
func (r *linkRun) score(i int, zb []float64) float64 {
	sq, res := r.screened(i, zb)
	c := r.cands[i]
	w := r.linkWeight(c)
	switch {
	case r.rho != nil:
		return r.rhoScoreIn(r.rho, i, w, sq, res)
	case r.star != nil:
		return r.starScore(i, w, sq, res)
	}
	return w * sq / (1 + w*res)
}

// screened returns the screened ‖L_k†b‖² and R of candidate i (zb gets
// Zb); with the screening control variate they are its estimates (spec
// §13.13, "Screening control variate"), clamped at 0.
func (r *linkRun) screened(i int, zb []float64) (sq, res float64) {
	c := r.cands[i]
	m, u, v := r.m, c.U*r.m, c.V*r.m
	for j := range m {
		d := r.zt[u+j] - r.zt[v+j]
		zb[j] = d
		sq += d * d
	}
	switch {
	case r.exact:
		res = zb[c.U] - zb[c.V]
	case r.scv != nil:
		sq = max(sq+float64(r.scv.cz[i]), 0)
		res = max(r.scv.screenQuad(c.U, c.V, zb)+float64(r.scv.cr[i]), 0)
	default:
		my, u, v := r.my, c.U*r.my, c.V*r.my
		for j := range my {
			d := r.yt[u+j] - r.yt[v+j]
			res += d * d
		}
	}
	return sq, res
}

// choose screens all unused candidates, confirms the Pool best and
// returns the best confirmed one with x = L_k† b.
func (r *linkRun) choose() (int, []float64, error) {
	var top []int
	if r.exact {
		top = r.topScores(1)
	} else {
		top = r.lazyTop(r.set.Pool)
	}
	keep := map[int][]float64{}
	best, bestGain := -1, math.Inf(-1)
	for _, i := range top {
		x, ok := r.pool[i]
		if !ok {
			var err error
			if x, err = r.exactX(r.cands[i]); err != nil {
				return 0, nil, err
			}
		}
		keep[i] = x
		c := r.cands[i]
		w := r.linkWeight(c)
		if g := w * dense.Dot(x, x) / (1 + w*(x[c.U]-x[c.V])); g > bestGain {
			best, bestGain = i, g
		}
	}
	r.pool = keep
	return best, keep[best], nil
}

// topScores returns the indices of the p best-screened unused
// candidates, best first (ties by index).
func (r *linkRun) topScores(p int) []int {
	const grain = 4096
	pieces := par.Pieces(len(r.cands), grain, 256)
	tops := make([][]scored, pieces)
	par.For(pieces, 0, func(pc int) {
		lo, hi := par.Bounds(len(r.cands), pieces, pc)
		zb := make([]float64, r.m)
		var t []scored
		for i := lo; i < hi; i++ {
			if !r.used[i] {
				t = pushTop(t, scored{i, r.score(i, zb)}, p)
			}
		}
		tops[pc] = t
	})
	var all []scored
	for _, t := range tops {
		all = append(all, t...)
	}
	sortScored(all)
	out := make([]int, 0, p)
	for _, s := range all[:min(p, len(all))] {
		out = append(out, s.i)
	}
	return out
}

type scored struct {
	i int
	s float64
}

func sortScored(t []scored) {
	slices.SortFunc(t, func(a, b scored) int {
		if c := cmp.Compare(b.s, a.s); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	})
}

// pushTop keeps the p best of t and s (t sorted best first).
func pushTop(t []scored, s scored, p int) []scored {
	if len(t) == p && !(s.s > t[p-1].s) {
		return t
	}
	if len(t) < p {
		t = append(t, s)
	} else {
		t[p-1] = s
	}
	for j := len(t) - 1; j > 0 && (t[j].s > t[j-1].s || (t[j].s == t[j-1].s && t[j].i < t[j-1].i)); j-- {
		t[j], t[j-1] = t[j-1], t[j]
	}
	return t
}

// exactX returns x = L_k† b for candidate c: from the dense L† in
// LinkExact, else by a solve on g and the product form.
func (r *linkRun) exactX(c wgraph.Edge) ([]float64, error) {
	x := make([]float64, r.n)
	if r.exact {
		for j := range r.n {
			x[j] = r.zt[c.U*r.n+j] - r.zt[c.V*r.n+j]
		}
		return x, nil
	}
	b := make([]float64, r.n)
	b[c.U], b[c.V] = 1, -1
	_, err := r.sol.Solve(x, b)
	if err != nil {
		return nil, err
	}
	r.out.Solves++
	for i, xi := range r.xs {
		a := r.cs[i] * (xi[c.U] - xi[c.V])
		for j := range x {
			x[j] -= a * xi[j]
		}
	}
	return x, nil
}

// apply adds candidate i (x = L_k† b) to the state by the rank-one
// corrections of spec §13.13.
func (r *linkRun) apply(i int, x []float64) {
	c := r.cands[i]
	w := r.linkWeight(c)
	res := x[c.U] - x[c.V]
	coef := w / (1 + w*res)
	r.used[i], r.added[i] = true, true
	r.order = append(r.order, i)
	delete(r.pool, i)
	for p, xp := range r.pool {
		cp := r.cands[p]
		a := coef * (x[cp.U] - x[cp.V])
		for j := range xp {
			xp[j] -= a * x[j]
		}
	}
	zb := make([]float64, r.m)
	for j := range r.m {
		zb[j] = r.zt[c.U*r.m+j] - r.zt[c.V*r.m+j]
	}
	rankOne(r.zt, r.m, x, zb, -coef)
	if !r.exact && r.my > 0 {
		yb := make([]float64, r.my)
		s := math.Sqrt(w) / math.Sqrt(float64(r.my)) / (1 + w*res)
		for j := range r.my {
			yb[j] = -coef*(r.yt[c.U*r.my+j]-r.yt[c.V*r.my+j]) + s*rademacher(r.rng)
		}
		rankOne(r.yt, r.my, x, yb, 1)
	}
	if !r.exact && r.my == 0 {
		r.skipDraws(r.m) // Y's column, as in startSketch
	}
	if !r.exact {
		r.xs, r.cs = append(r.xs, x), append(r.cs, coef)
	}
}

// rankOne sets t ← t + a·x yᵀ for the node-major t (n × m).
func rankOne(t []float64, m int, x, y []float64, a float64) {
	par.Range(len(x), 4096, 256, 0, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			f := a * x[i]
			row := t[i*m : (i+1)*m]
			for j := range row {
				row[j] += f * y[j]
			}
		}
	})
}
