package estimate

import (
	"math"
	"math/rand/v2"
	"sort"
	"strconv"

	"gonum.org/v1/gonum/mathext"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/lapmat"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/laplacian"
	"github.com/loadlab/loadlab/wgraph"
)

// DefaultSketchEps and DefaultSketchMiss are the defaults of
// SketchSettings: each estimate within 1 ± 0.3 of the exact resistance
// with probability at least 95 %.
const (
	DefaultSketchEps  = 0.3
	DefaultSketchMiss = 0.05
)

// SketchSettings configures the random-projection resistance estimates
// (EdgeResistances, NewResistanceSketch). A nil pointer means all
// defaults; a zero field means that field's default.
type SketchSettings struct {
	// Eps is the target relative accuracy ε of each resistance, in
	// (0, 1); 0 means DefaultSketchEps.
	Eps float64
	// Miss is δ, the probability allowed for one estimate to fall outside
	// [(1 − ε) R, (1 + ε) R], in (0, 1); 0 means DefaultSketchMiss. The
	// projection count k is the least with SketchMiss(k, ε) ≤ δ, so the
	// expected fraction of edges (or of any set of pairs) outside 1 ± ε
	// is at most δ.
	Miss float64
	// AllPairs, if set, applies δ to all n(n − 1)/2 pairs at once (union
	// bound): with probability at least 1 − δ every pair is within
	// 1 ± ε. k then grows with ln n: 1431 instead of 85 projections at
	// n = 10⁶, ε = 0.3, δ = 0.05.
	AllPairs bool
	// Solver configures the k solves; nil means defaults except that a
	// zero Tol means ε/100 (see EdgeResistances for the error
	// budget).
	Solver *laplacian.Settings
}

// Validate reports a field outside its domain.
func (s *SketchSettings) Validate() error {
	if s == nil {
		return nil
	}
	if s.Eps != 0 && !(s.Eps > 0 && s.Eps < 1) {
		return loadlab.Invalid("estimate", "SketchSettings.Eps = %v, want 0 (default) or in (0, 1)", s.Eps)
	}
	if s.Miss != 0 && !(s.Miss > 0 && s.Miss < 1) {
		return loadlab.Invalid("estimate", "SketchSettings.Miss = %v, want 0 (default) or in (0, 1)", s.Miss)
	}
	return s.Solver.Validate()
}

// resolved returns ε, the per-pair miss probability (δ, or δ over the
// pairs for AllPairs) and the solver settings.
func (s *SketchSettings) resolved(n int) (eps, miss float64, solver laplacian.Settings) {
	eps, miss = DefaultSketchEps, DefaultSketchMiss
	if s != nil {
		if s.Eps != 0 {
			eps = s.Eps
		}
		if s.Miss != 0 {
			miss = s.Miss
		}
		if s.AllPairs && n > 1 {
			miss /= float64(n) * float64(n-1) / 2
		}
		if s.Solver != nil {
			solver = *s.Solver
		}
	}
	if solver.Tol == 0 {
		solver.Tol = eps / 100
	}
	return eps, miss, solver
}

// SketchMiss returns P(|χ²_k/k − 1| > ε), the probability that one
// estimate of k Gaussian projections (with exact solves) is off by more
// than a factor 1 ± ε: R̃/R is distributed as χ²_k/k. It returns an error
// wrapping loadlab.ErrInvalid for k < 1 or eps outside (0, 1).
func SketchMiss(k int, eps float64) (float64, error) {
	if k < 1 {
		return 0, loadlab.Invalid("estimate", "SketchMiss: k = %d, want ≥ 1", k)
	}
	if !(eps > 0 && eps < 1) {
		return 0, loadlab.Invalid("estimate", "SketchMiss: eps = %v, want in (0, 1)", eps)
	}
	return sketchMiss(k, eps), nil
}

func sketchMiss(k int, eps float64) float64 {
	a := float64(k) / 2
	return mathext.GammaIncReg(a, a*(1-eps)) + mathext.GammaIncRegComp(a, a*(1+eps))
}

// SketchProjections returns the number k of projections the settings ask
// for on n nodes: the least k with SketchMiss(k, ε) ≤ δ (δ divided by the
// n(n − 1)/2 pairs for AllPairs). The search runs on logarithms of δ and
// of the tail (logSketchMiss), so a per-pair δ far below the smallest
// float64 (all pairs of 10⁹ nodes at δ = 1e-300) still gets its count.
// It returns an error wrapping loadlab.ErrInvalid for n < 1 or invalid
// settings, and one wrapping loadlab.ErrTooLarge when k would exceed
// MaxSketchProjections.
func SketchProjections(n int, set *SketchSettings) (int, error) {
	if n < 1 {
		return 0, loadlab.Invalid("estimate", "SketchProjections: n = %d, want ≥ 1", n)
	}
	if err := set.Validate(); err != nil {
		return 0, err
	}
	eps, logMiss := set.logMiss(n)
	// The normal approximation k ≈ 2 (z_{δ/2}/ε)² screens out hopeless
	// requests before any incomplete gamma function of huge order.
	if z2 := normalQuantileSq(logMiss); 2*z2/(eps*eps) > 2*MaxSketchProjections {
		return 0, loadlab.TooLarge("estimate", "SketchProjections: about %.3g projections for ε = %v, δ = %s, want ≤ %d", 2*z2/(eps*eps), eps, fmtLog(logMiss), MaxSketchProjections)
	}
	// The tail decreases in k: double, then bisect.
	hi := 1
	for logSketchMiss(hi, eps) > logMiss {
		if hi >= MaxSketchProjections {
			return 0, loadlab.TooLarge("estimate", "SketchProjections: more than %d projections for ε = %v, δ = %s", MaxSketchProjections, eps, fmtLog(logMiss))
		}
		hi = min(2*hi, MaxSketchProjections)
	}
	lo := hi / 2 // SketchMiss(lo) > miss, or lo = 0
	for hi-lo > 1 {
		if mid := lo + (hi-lo)/2; logSketchMiss(mid, eps) <= logMiss {
			hi = mid
		} else {
			lo = mid
		}
	}
	return max(hi, 2), nil
}

// logMiss returns ε and ln of the per-pair miss probability (resolved's
// miss, in logarithms: δ/(n(n − 1)/2) underflows for tiny δ and large n).
func (s *SketchSettings) logMiss(n int) (eps, logMiss float64) {
	eps, _, _ = s.resolved(n)
	logMiss = math.Log(DefaultSketchMiss)
	if s != nil && s.Miss != 0 {
		logMiss = math.Log(s.Miss)
	}
	if s != nil && s.AllPairs && n > 1 {
		logMiss -= math.Log(float64(n)) + math.Log(float64(n-1)) - math.Ln2
	}
	return eps, logMiss
}

// fmtLog formats e^l: as a float where that is normal, else as e^l.
func fmtLog(l float64) string {
	if l > math.Log(0x1p-1022) {
		return strconv.FormatFloat(math.Exp(l), 'g', 3, 64)
	}
	return "e^" + strconv.FormatFloat(l, 'g', 5, 64)
}

// normalQuantileSq returns z² for the two-sided normal tail
// erfc(z/√2) = δ given ln δ: by Erfcinv while δ ≥ 1e-15 (where 1 − δ
// still holds its digits), else from the asymptotic tail
// erfc(z/√2) ≈ √(2/π) e^{−z²/2}/z, solved by two fixed-point steps of
// z² = −2 ln δ − ln(πz²/2) (relative error below 1 % there).
func normalQuantileSq(logMiss float64) float64 {
	if logMiss >= math.Log(1e-15) {
		z := math.Sqrt2 * math.Erfcinv(math.Exp(logMiss))
		return z * z
	}
	z2 := -2 * logMiss
	for range 2 {
		z2 = -2*logMiss - math.Log(math.Pi*z2/2)
	}
	return z2
}

// logTailFloor is the tail below which logSketchMiss leaves
// mathext's regularised incomplete gamma functions (their values near
// the float64 underflow lose digits, and vanish below it) for the
// logarithmic series and continued fraction.
const logTailFloor = 1e-290

// logSketchMiss returns ln SketchMiss(k, ε): the logarithm of sketchMiss
// where that is ≥ logTailFloor, else ln(P(a, a(1 − ε)) + Q(a, a(1 + ε)))
// (a = k/2, the regularised incomplete gamma functions of χ²_k/k's two
// tails; spec throttlers.md §12.9) summed from the logarithms of each.
func logSketchMiss(k int, eps float64) float64 {
	if v := sketchMiss(k, eps); v >= logTailFloor {
		return math.Log(v)
	}
	a := float64(k) / 2
	lp, lq := logGammaIncLower(a, eps), logGammaIncUpper(a, eps)
	hi, lo := max(lp, lq), min(lp, lq)
	return hi + math.Log1p(math.Exp(lo-hi))
}

// logGammaPrefix returns ln(x^a e^{−x}/Γ(a)) at x = a(1 + t):
// a(ln(1 + t) − t) + ½ ln(a/(2π)) − s(a), with s(a) = ln Γ(a) − (a − ½) ln a
// + a − ½ ln 2π Stirling's remainder, so that no terms of size a ln a
// cancel.
func logGammaPrefix(a, t float64) float64 {
	return a*(math.Log1p(t)-t) + 0.5*math.Log(a/(2*math.Pi)) - stirlingRem(a)
}

// stirlingRem returns ln Γ(a) − ((a − ½) ln a − a + ½ ln 2π): its
// asymptotic series for a ≥ 10 (error below the next term, 1/(1188 a⁹)
// ≤ 1e-12), else from math.Lgamma.
func stirlingRem(a float64) float64 {
	if a < 10 {
		lg, _ := math.Lgamma(a)
		return lg - ((a-0.5)*math.Log(a) - a + 0.5*math.Log(2*math.Pi))
	}
	b := 1 / (a * a)
	return (1.0/12 - b*(1.0/360-b*(1.0/1260-b/1680))) / a
}

// tailTerms bounds the terms of the series and continued fraction of
// the incomplete gamma functions (the count the screen of
// SketchProjections lets through converges within a few thousand).
const tailTerms = 1 << 20

// logGammaIncLower returns ln P(a, a(1 − ε)), the lower regularised
// incomplete gamma function, from its series
// P(a, x) = x^a e^{−x}/Γ(a + 1) · Σ_{j≥0} x^j/((a + 1)⋯(a + j)), whose
// terms fall at least by the factor x/(a + 1) < 1 − ε.
func logGammaIncLower(a, eps float64) float64 {
	x := a * (1 - eps)
	sum, term := 1.0, 1.0
	for j := 1; j <= tailTerms; j++ {
		term *= x / (a + float64(j))
		sum += term
		if term <= 1e-17*sum {
			break
		}
	}
	return logGammaPrefix(a, -eps) - math.Log(a) + math.Log(sum)
}

// logGammaIncUpper returns ln Q(a, a(1 + ε)), the upper regularised
// incomplete gamma function, from its continued fraction
// Q(a, x) = x^a e^{−x}/Γ(a) · 1/(x + 1 − a − 1(1 − a)/(x + 3 − a − 2(2 − a)/(x + 5 − a − ⋯)))
// evaluated by the modified Lentz method (it converges for x > a).
func logGammaIncUpper(a, eps float64) float64 {
	const tiny = 1e-300
	x := a * (1 + eps)
	b := x + 1 - a
	c, d := 1/tiny, 1/b
	h := d
	for i := 1; i <= tailTerms; i++ {
		an := -float64(i) * (float64(i) - a)
		b += 2
		if d = an*d + b; math.Abs(d) < tiny {
			d = tiny
		}
		if c = b + an/c; math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) <= 1e-16 {
			break
		}
	}
	return logGammaPrefix(a, eps) + math.Log(h)
}

// MaxSketchProjections bounds the projections k of SketchProjections:
// beyond it the k Laplacian solves would not finish in any useful time.
const MaxSketchProjections = 1 << 31

// SketchInfo describes a random-projection run.
type SketchInfo struct {
	Eps  float64 // target relative accuracy ε
	Miss float64 // per-estimate probability of missing 1 ± ε, SketchMiss(K, Eps)
	K    int     // projections
	// Foster is Σ_e w_e R̃_e over the edges, whose exact value is n − 1
	// (Foster's theorem). With exact solves it is an estimate of n − 1
	// with relative standard deviation √(2/(k(n−1))), far below ε;
	// inexact solves lower it by the mean squared relative energy-norm
	// error of the solutions, so FosterRelErr much above that spread
	// means the solves were inaccurate.
	Foster       float64
	FosterRelErr float64 // |Foster/(n − 1) − 1|
	Iterations   int     // conjugate-gradient iterations over all k solves
	Residual     float64 // largest relative residual of the k solves
}

// sketchBlock is the number of projections drawn, solved and
// accumulated per pass over the edges.
const sketchBlock = 8

// sketch is the work of one random-projection run: the solver, and the
// right-hand sides and solutions of up to sketchBlock projections at a
// time, one vector of n values each (column c of y is y[c·n:(c+1)·n]), in
// the solver's internal order. Each column is solved alone: a lockstep
// solver on 8 interleaved columns (one 64-byte line per node) gains
// nothing at n = 10⁶ over single solves on the compact breadth-first
// matrix, its 8-column product costing about as much CPU as eight
// single-column products (docs/benchmarks-log.md), so the simpler code
// is kept.
type sketch struct {
	g            *wgraph.Graph
	s            *laplacian.Solver
	m            *lapmat.Matrix
	rng          *rand.Rand
	seeds        [sketchBlock]uint64
	cnt          int
	y, x         []float64
	acc          []float64 // EdgeResistances: Σ (z_i − z_j)² per internal edge
	eoff         []int     // first internal edge of each row block
	accumulating bool      // fn accumulates (else it draws projections)
	fn           lapmat.RangeFunc
	info         SketchInfo
}

// sketchRun draws the k Gaussian projections and solves for them,
// sketchBlock at a time, calling visit with the first column's index and
// the number of columns after each block; their solutions
// z = L† Bᵀ W^{1/2} q (q a standard Gaussian vector on the edges;
// Spielman and Srivastava, SIAM J. Comput. 40, 2011, §4) are in sk.x.
func sketchRun(g *wgraph.Graph, set *SketchSettings, src rand.Source, visit func(sk *sketch, c0, cnt int)) (SketchInfo, error) {
	if err := set.Validate(); err != nil {
		return SketchInfo{}, err
	}
	n := g.Order()
	eps, _, solverSet := set.resolved(n)
	sk := &sketch{g: g, info: SketchInfo{Eps: eps}}
	var err error
	if sk.info.K, err = SketchProjections(max(n, 2), set); err != nil {
		return sk.info, err
	}
	sk.info.Miss = sketchMiss(sk.info.K, eps)
	if err := size.Check("estimate", "sketch: nodes × block", n, 8*2*sketchBlock); err != nil {
		return sk.info, err
	}
	if sk.s, err = laplacian.NewSolver(g, &solverSet, src); err != nil {
		return sk.info, err
	}
	// The sketch's own copy of L in the solver's breadth-first order
	// (lapmat.New is deterministic), so that the projections, the
	// solves and the accumulation all run in that order.
	if sk.m, err = lapmat.New(g); err != nil {
		return sk.info, err
	}
	sk.rng = rand.New(src)
	sk.y, sk.x = make([]float64, n*sketchBlock), make([]float64, n*sketchBlock)
	sk.fn = func(lo, hi int) {
		if sk.accumulating {
			for blk := lo; blk < hi; blk++ {
				sk.accumulate(blk)
			}
			return
		}
		sk.projectColumns(lo, hi)
	}
	for c0 := 0; c0 < sk.info.K; c0 += sketchBlock {
		sk.project(min(sketchBlock, sk.info.K-c0))
		for c := range sk.cnt {
			if err := sk.solveColumn(c); err != nil {
				return sk.info, err
			}
		}
		visit(sk, c0, sk.cnt)
	}
	return sk.info, nil
}

// project sets the first cnt columns of y to Bᵀ W^{1/2} q for fresh
// standard Gaussian vectors q on the edges. Column c draws from its own
// stream, seeded from the run's source in column order, so the columns
// are drawn in parallel with a result independent of the number of
// goroutines.
func (sk *sketch) project(cnt int) {
	sk.cnt = cnt
	for c := range cnt {
		sk.seeds[c] = sk.rng.Uint64()
	}
	lapmat.ParallelBlocks(cnt, sk.fn)
}

// projectColumns draws columns [lo, hi) of y, in one pass over the edges
// each.
func (sk *sketch) projectColumns(lo, hi int) {
	m := sk.m
	n := m.N
	for c := lo; c < hi; c++ {
		rng := rand.New(rand.NewPCG(sk.seeds[c], uint64(c)))
		y := sk.y[c*n : (c+1)*n]
		clear(y)
		sw := math.Sqrt(m.Wc)
		for i := range n {
			lo, hi := m.Span(i)
			for p := lo; p < hi; p++ {
				j := int(m.Adj[p])
				if j <= i {
					continue
				}
				if m.W != nil {
					sw = math.Sqrt(m.W[p])
				}
				x := sw * rng.NormFloat64()
				y[i] += x
				y[j] -= x
			}
		}
	}
}

// solveColumn solves column c of y alone into column c of x. Under Auto
// the first solve settles the preconditioner for all (Jacobi where the
// solver's probe predicts it cheaper, the factor otherwise or once
// Jacobi has spent what the factor costs).
func (sk *sketch) solveColumn(c int) error {
	n := sk.m.N
	res, err := sk.s.SolveOrdered(sk.x[c*n:(c+1)*n], sk.y[c*n:(c+1)*n])
	sk.info.Iterations += res.Iterations
	sk.info.Residual = max(sk.info.Residual, res.Residual)
	return err
}

// EdgeResistanceSet holds approximate effective resistances of every edge.
type EdgeResistanceSet struct {
	Edges []wgraph.Edge // the edges, in the order of g.Edges()
	R     []float64     // R[e] ≈ R of Edges[e]
	SketchInfo
}

// EdgeResistances estimates the effective resistance of every edge
// of g by the random projections of Spielman and Srivastava (spec
// throttlers.md §12.9, "Effective resistance"). With B the m×n signed
// incidence matrix and W the edge weights, L = Bᵀ W B, so
// R_uv = ‖W^{1/2} B L† (e_u − e_v)‖²; for a k×m matrix Q of independent
// standard Gaussians, each row q gives (qᵀ W^{1/2} B L† (e_u − e_v))² =
// R_uv·χ²₁, so R̃_uv = ‖Z(e_u − e_v)‖² with Z = Q W^{1/2} B L†/√k is
// distributed as R_uv χ²_k/k, and each of the k rows of Z costs one
// Laplacian solve.
//
// Guarantee: with exact solves, each estimate lies in [(1 − ε) R, (1 + ε) R]
// with probability 1 − SketchMiss(k, ε) ≥ 1 − δ (SketchSettings.Miss), so
// the expected fraction of edges outside is at most δ; the edges share
// the projections, so the realised fraction varies more than a binomial
// one around that mean.
//
// Solve error: a solution z̃ with relative energy-norm error η
// (‖z̃ − z‖_L ≤ η ‖z‖_L) perturbs each edge's difference z_u − z_v by
// δ_e with Σ_e w_e δ_e² ≤ η² Σ_e w_e (z_u − z_v)²: the relative error
// δ_e²/R_e averages to η² with weights w_e R_e (the edges' leverages,
// summing to n − 1), so edges of small leverage can see much more. The
// relative residual Tol bounds η by Tol·√κ (κ = λ_n/λ₂ of the
// preconditioned operator). Tol = ε/10 is too loose: on a 1000-node
// graph with weights over 4 decades, 8.4 % of the edges miss 1 ± 0.3
// (8 seeds) against the stated 4.9 %, and 5.5 % at Tol = ε/30; from
// Tol = ε/100 on the rate is that of exact solves (4.5 %, as at
// Tol = 10⁻⁶). The default is therefore ε/100; on a 10⁶-node random
// 6-regular graph (κ ≈ 7) it costs 8 iterations per solve instead of 5.
// Foster's sum measures the mean η² (SketchInfo.Foster), so a
// FosterRelErr well above its sampling spread calls for a smaller
// Solver.Tol; it does not see errors confined to low-leverage edges.
//
// Memory is O(m + 16 n) numbers; time is k solves, k passes over the
// edges for the projections (8 at a time, in parallel) and ⌈k/8⌉ for the
// accumulation. The result reports Foster's check Σ w_e R̃_e ≈ n − 1.
// Errors are those of laplacian.NewSolver and laplacian.Solver.Solve
// (ErrNotConverged with the resistances accumulated so far being
// useless, so the result is nil then). It panics if g or src is nil.
func EdgeResistances(g *wgraph.Graph, set *SketchSettings, src rand.Source) (*EdgeResistanceSet, error) {
	if g == nil || src == nil {
		panic("estimate: EdgeResistances: nil graph or rand.Source")
	}
	if err := size.Check("estimate", "EdgeResistances: edges", g.Size(), 8+24); err != nil {
		return nil, err
	}
	acc := make([]float64, g.Size()) // in the internal edge order
	var mat *lapmat.Matrix
	info, err := sketchRun(g, set, src, func(sk *sketch, _, _ int) {
		if sk.acc == nil {
			mat = sk.m
			sk.startAccumulate(acc)
		}
		sk.accumulating = true
		lapmat.ParallelBlocks(lapmat.NumBlocks(mat.N), sk.fn)
		sk.accumulating = false
	})
	if err != nil {
		return nil, err
	}
	out := &EdgeResistanceSet{Edges: g.Edges(), R: make([]float64, len(acc)), SketchInfo: info}
	edgeIndex := originalEdgeIndex(g)
	var foster float64
	e := 0
	for i := range mat.N {
		lo, hi := mat.Span(i)
		for p := lo; p < hi; p++ {
			if j := int(mat.Adj[p]); j > i {
				o := edgeIndex(int(mat.Perm[i]), int(mat.Perm[j]))
				out.R[o] = acc[e] / float64(info.K)
				foster += out.Edges[o].W * out.R[o]
				e++
			}
		}
	}
	out.setFoster(foster, g.Order())
	return out, nil
}

// startAccumulate records acc and the first internal edge {i, j}, i < j,
// of each row block, so that row blocks accumulate in parallel.
func (sk *sketch) startAccumulate(acc []float64) {
	m := sk.m
	sk.acc = acc
	nb := lapmat.NumBlocks(m.N)
	sk.eoff = make([]int, nb+1)
	e := 0
	for blk := range nb {
		sk.eoff[blk] = e
		r0, r1 := lapmat.BlockRows(blk, m.N)
		for i := r0; i < r1; i++ {
			lo, hi := m.Span(i)
			for _, j := range m.Adj[lo:hi] {
				if int(j) > i {
					e++
				}
			}
		}
	}
	sk.eoff[nb] = e
}

// accumulate adds Σ_c (x_ic − x_jc)² over the block's columns to acc[e]
// for every internal edge e = {i, j}, i < j, of row block blk, in one
// pass over its edges.
func (sk *sketch) accumulate(blk int) {
	m := sk.m
	n := m.N
	e := sk.eoff[blk]
	r0, r1 := lapmat.BlockRows(blk, n)
	for i := r0; i < r1; i++ {
		lo, hi := m.Span(i)
		for _, j := range m.Adj[lo:hi] {
			if int(j) <= i {
				continue
			}
			var s float64
			for c := range sk.cnt {
				x := sk.x[c*n : (c+1)*n]
				d := x[i] - x[j]
				s += d * d
			}
			sk.acc[e] += s
			e++
		}
	}
}

// originalEdgeIndex returns the function giving the index in g.Edges() of
// the edge {u, v}, which must exist.
func originalEdgeIndex(g *wgraph.Graph) func(u, v int) int {
	n := g.Order()
	base := make([]int, n+1) // edges {a, b}, a < b, with a < u
	for u := range n {
		nb := g.Neighbors(u)
		above := len(nb) - sort.Search(len(nb), func(i int) bool { return int(nb[i]) > u })
		base[u+1] = base[u] + above
	}
	return func(u, v int) int {
		if u > v {
			u, v = v, u
		}
		nb := g.Neighbors(u)
		first := sort.Search(len(nb), func(i int) bool { return int(nb[i]) > u })
		at := sort.Search(len(nb), func(i int) bool { return int(nb[i]) >= v })
		return base[u] + at - first
	}
}

func (info *SketchInfo) setFoster(foster float64, n int) {
	info.Foster = foster
	if n > 1 {
		info.FosterRelErr = math.Abs(foster/float64(n-1) - 1)
	}
}

// ResistanceSketch answers approximate resistance queries between any
// pair of nodes from k stored projections (n·k numbers).
type ResistanceSketch struct {
	n, k int
	z    []float64 // z[u*k + i] = row i of Z at node u, scaled by 1/√k
	SketchInfo
}

// NewResistanceSketch computes the projections of EdgeResistances
// and keeps them, n·k·8 bytes, so that Between answers any pair in O(k),
// with the guarantee stated there (for AllPairs, every pair at once). It
// returns an error wrapping loadlab.ErrTooLarge when they would not fit,
// and the errors of laplacian.NewSolver and laplacian.Solver.Solve. It
// panics if g or src is nil.
func NewResistanceSketch(g *wgraph.Graph, set *SketchSettings, src rand.Source) (*ResistanceSketch, error) {
	if g == nil || src == nil {
		panic("estimate: NewResistanceSketch: nil graph or rand.Source")
	}
	n := g.Order()
	k, err := SketchProjections(max(n, 2), set)
	if err != nil {
		return nil, err
	}
	nk, ok := size.Mul(n, k)
	if !ok {
		nk = -1
	}
	if err := size.Check("estimate", "NewResistanceSketch: nodes × projections", nk, 8); err != nil {
		return nil, err
	}
	rs := &ResistanceSketch{n: n, k: k, z: make([]float64, n*k)}
	scale := 1 / math.Sqrt(float64(k))
	info, err := sketchRun(g, set, src, func(sk *sketch, c0, cnt int) {
		for c := range cnt {
			x := sk.x[c*n : (c+1)*n]
			for i, u := range sk.m.Perm {
				rs.z[int(u)*k+c0+c] = x[i] * scale
			}
		}
	})
	if err != nil {
		return nil, err
	}
	rs.SketchInfo = info
	var foster float64
	for _, e := range g.Edges() {
		foster += e.W * rs.Between(e.U, e.V)
	}
	rs.setFoster(foster, n)
	return rs, nil
}

// Between returns R̃_uv. It panics if u or v is out of range.
func (rs *ResistanceSketch) Between(u, v int) float64 {
	if u < 0 || u >= rs.n || v < 0 || v >= rs.n {
		panic(loadlab.Invalid("estimate", "ResistanceSketch.Between: nodes (%d, %d) out of range [0, %d)", u, v, rs.n))
	}
	zu, zv := rs.z[u*rs.k:(u+1)*rs.k], rs.z[v*rs.k:(v+1)*rs.k]
	var s float64
	for i, x := range zu {
		d := x - zv[i]
		s += d * d
	}
	return s
}
