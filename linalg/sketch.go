package linalg

import (
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"
)

// DefaultSketchEps and DefaultSketchC are the defaults of SketchSettings.
const (
	DefaultSketchEps = 0.3
	DefaultSketchC   = 1
)

// SketchSettings configures the random-projection resistance estimates
// (ApproxEdgeResistances, NewResistanceSketch). A nil pointer means all
// defaults; a zero field means that field's default.
type SketchSettings struct {
	// Eps is the target relative accuracy ε of each resistance, in
	// (0, 1); 0 means DefaultSketchEps.
	Eps float64
	// C is the constant of the projection count k = ⌈C ln n / ε²⌉, > 0;
	// 0 means DefaultSketchC. Each estimate is off by more than ε with
	// probability about 2Φ(−√(C ln n / 2)) (see SketchAccuracy).
	C float64
	// Solver configures the k solves; nil means defaults except that a
	// zero Tol means ε²/100, enough that solve error is a small fraction
	// of ε (checked against exact resistances in the tests).
	Solver *SolverSettings
}

// Validate reports a field outside its domain.
func (s *SketchSettings) Validate() error {
	if s == nil {
		return nil
	}
	if s.Eps != 0 && !(s.Eps > 0 && s.Eps < 1) {
		return loadlab.Invalid("linalg", "SketchSettings.Eps = %v, want 0 (default) or in (0, 1)", s.Eps)
	}
	if s.C != 0 && !(s.C > 0 && s.C <= 1e6) {
		return loadlab.Invalid("linalg", "SketchSettings.C = %v, want 0 (default) or in (0, 1e6]", s.C)
	}
	return s.Solver.Validate()
}

func (s *SketchSettings) resolved() (eps, c float64, solver SolverSettings) {
	eps, c = DefaultSketchEps, float64(DefaultSketchC)
	if s != nil {
		if s.Eps != 0 {
			eps = s.Eps
		}
		if s.C != 0 {
			c = s.C
		}
		if s.Solver != nil {
			solver = *s.Solver
		}
	}
	if solver.Tol == 0 {
		solver.Tol = max(eps*eps/100, 1e-15)
	}
	return eps, c, solver
}

// SketchProjections returns k = ⌈C ln n / ε²⌉ (at least 2), the number of
// random projections for accuracy eps on n nodes. It returns an error
// wrapping loadlab.ErrInvalid for n < 1, eps outside (0, 1) or c outside
// (0, 1e6] (the domains of SketchSettings), and one wrapping
// loadlab.ErrTooLarge when k would exceed MaxSketchProjections (as for an
// eps so small that ε² underflows).
func SketchProjections(n int, eps, c float64) (int, error) {
	if n < 1 {
		return 0, loadlab.Invalid("linalg", "SketchProjections: n = %d, want ≥ 1", n)
	}
	if !(eps > 0 && eps < 1) {
		return 0, loadlab.Invalid("linalg", "SketchProjections: eps = %v, want in (0, 1)", eps)
	}
	if !(c > 0 && c <= 1e6) {
		return 0, loadlab.Invalid("linalg", "SketchProjections: c = %v, want in (0, 1e6]", c)
	}
	k := math.Ceil(c * math.Log(float64(n)) / (eps * eps))
	if !(k <= MaxSketchProjections) {
		return 0, loadlab.TooLarge("linalg", "SketchProjections: k = ⌈%v·ln %d / %v²⌉ = %g projections, want ≤ %d", c, n, eps, k, MaxSketchProjections)
	}
	return max(2, int(k)), nil
}

// MaxSketchProjections bounds the projections k of SketchProjections:
// beyond it the k Laplacian solves would not finish in any useful time.
const MaxSketchProjections = 1 << 31

// SketchAccuracy returns, for k projections and accuracy eps, the
// probability that one resistance estimate is off by more than a factor
// 1 ± eps: approx is the normal approximation 2Φ(−ε √(k/2)) (the estimate
// is a mean of k independent terms of relative variance ≤ 2), and bound
// the rigorous tail bound 2 exp(−k (ε²/2 − ε³/3)/2) for Rademacher
// projections (Achlioptas, J. Comput. Syst. Sci. 66, 2003). The expected
// fraction of edges whose estimate misses by more than eps is at most
// these. It returns an error wrapping loadlab.ErrInvalid for k < 1 or eps
// outside (0, 1), the range of the bound.
func SketchAccuracy(k int, eps float64) (approx, bound float64, err error) {
	if k < 1 {
		return 0, 0, loadlab.Invalid("linalg", "SketchAccuracy: k = %d, want ≥ 1", k)
	}
	if !(eps > 0 && eps < 1) {
		return 0, 0, loadlab.Invalid("linalg", "SketchAccuracy: eps = %v, want in (0, 1)", eps)
	}
	approx = math.Erfc(eps * math.Sqrt(float64(k)/2) / math.Sqrt2)
	bound = math.Min(1, 2*math.Exp(-float64(k)*(eps*eps/2-eps*eps*eps/3)/2))
	return approx, bound, nil
}

// SketchInfo describes a random-projection run.
type SketchInfo struct {
	Eps float64 // target relative accuracy ε
	K   int     // projections, ⌈C ln n / ε²⌉
	// Foster is Σ_e w_e R̃_e over the edges, whose exact value is n − 1
	// (Foster's theorem). It is a Hutchinson estimate of n − 1 with
	// relative standard deviation ≤ √(2/(k(n−1))), far below ε, so a
	// FosterRelErr comparable to ε means the solves were inaccurate.
	Foster       float64
	FosterRelErr float64 // |Foster/(n − 1) − 1|
	Iterations   int     // conjugate-gradient iterations over all k solves
	Residual     float64 // largest relative residual of the k solves
}

// sketchRun draws the k projections and solves for each, calling visit
// with the projection index and z = L† Bᵀ W^{1/2} q (q a Rademacher
// vector on the edges; Spielman and Srivastava, SIAM J. Comput. 40,
// 2011, §4).
func sketchRun(g *Graph, set *SketchSettings, src rand.Source, visit func(i int, z []float64)) (SketchInfo, error) {
	if err := set.Validate(); err != nil {
		return SketchInfo{}, err
	}
	eps, c, solverSet := set.resolved()
	n := g.Order()
	info := SketchInfo{Eps: eps}
	var err error
	if info.K, err = SketchProjections(max(n, 2), eps, c); err != nil {
		return info, err
	}
	s, err := NewLaplacianSolver(g, &solverSet, src)
	if err != nil {
		return info, err
	}
	rng := rand.New(src)
	y, z := make([]float64, n), make([]float64, n)
	var bc *blockCG
	for i := 0; i < info.K; {
		if bc == nil {
			clear(y)
			project(y, 1, 0, g, rng)
			if err := info.solve(s, z, y); err != nil {
				return info, err
			}
			visit(i, z)
			i++
			// Once Jacobi has proved enough, solve the rest 8 at a time.
			if s.ac == nil && info.K-i >= blockWidth {
				bc = newBlockCG(s.op, s.op.invDegrees())
			}
			continue
		}
		cnt := min(blockWidth, info.K-i)
		if err := info.solveBlock(s, bc, z, cnt, rng, g, func(c int) { visit(i+c, z) }); err != nil {
			return info, err
		}
		i += cnt
	}
	return info, nil
}

// project adds the projection Bᵀ W^{1/2} q of a fresh Rademacher vector q
// on the edges into column c of the interleaved dst (stride columns).
func project(dst []float64, stride, c int, g *Graph, rng *rand.Rand) {
	off, adj, w := g.CSR()
	var bits uint64
	nbits := 0
	for u := range len(off) - 1 {
		for p := off[u]; p < off[u+1]; p++ {
			v := int(adj[p])
			if v < u {
				continue
			}
			if nbits == 0 {
				bits, nbits = rng.Uint64(), 64
			}
			x := math.Copysign(math.Sqrt(w[p]), float64(int64(bits&1))-0.5)
			bits >>= 1
			nbits--
			dst[u*stride+c] += x
			dst[v*stride+c] -= x
		}
	}
}

// solve solves L z = y with s and records the work.
func (info *SketchInfo) solve(s *LaplacianSolver, z, y []float64) error {
	res, err := s.Solve(z, y)
	info.Iterations += res.Iterations
	info.Residual = max(info.Residual, res.Residual)
	return err
}

// solveBlock draws cnt ≤ blockWidth projections, solves them together
// with bc, and calls visit(c) with column c's solution in z. A column
// whose block solve missed the tolerance (or needs more than the Auto
// budget of Jacobi iterations) is solved again by s.
func (info *SketchInfo) solveBlock(s *LaplacianSolver, bc *blockCG, z []float64, cnt int, rng *rand.Rand, g *Graph, visit func(c int)) error {
	clear(bc.b)
	for c := range cnt {
		project(bc.b, blockWidth, c, g, rng)
	}
	budget := s.set.MaxIter
	if s.set.Preconditioner == Auto {
		budget = min(budget, AutoJacobiIters)
	}
	ok := bc.solve(s.set.Tol, budget)
	for c := range cnt {
		info.Iterations += bc.iters[c]
		for u := range z {
			z[u] = bc.b[u*blockWidth+c]
		}
		if !ok[c] {
			if err := info.solve(s, z, z); err != nil {
				return err
			}
		} else {
			info.Residual = max(info.Residual, bc.resid[c])
			for u := range z {
				z[u] = bc.x[u*blockWidth+c]
			}
		}
		visit(c)
	}
	return nil
}

// EdgeResistances holds approximate effective resistances of every edge.
type EdgeResistances struct {
	Edges []Edge    // the edges, in the order of g.Edges()
	R     []float64 // R[e] ≈ R of Edges[e]
	SketchInfo
}

// ApproxEdgeResistances estimates the effective resistance of every edge
// of g to relative accuracy ε (for all but a small fraction of edges, see
// SketchAccuracy) by the random projections of Spielman and Srivastava.
// With B the m×n signed incidence matrix and W the edge weights,
// L = Bᵀ W B, so R_uv = ‖W^{1/2} B L† (e_u − e_v)‖²; a k×m Rademacher
// matrix Q/√k preserves that norm to 1 ± ε (Johnson–Lindenstrauss), so
// with Z = Q W^{1/2} B L†/√k, R̃_uv = ‖Z(e_u − e_v)‖², and each of the k
// rows of Z costs one Laplacian solve. Memory is O(m); time is k solves and k passes over
// the edges. The result reports Foster's check Σ w_e R̃_e ≈ n − 1.
// Errors are those of NewLaplacianSolver and Solve (ErrNotConverged with
// the resistances accumulated so far being useless, so R is nil then).
// It panics if g or src is nil.
func ApproxEdgeResistances(g *Graph, set *SketchSettings, src rand.Source) (*EdgeResistances, error) {
	if g == nil || src == nil {
		panic("linalg: ApproxEdgeResistances: nil graph or rand.Source")
	}
	if err := size.Check("linalg", "ApproxEdgeResistances: edges", g.Size(), 8+24); err != nil {
		return nil, err
	}
	off, adj, _ := g.CSR()
	n := g.Order()
	acc := make([]float64, g.Size())
	info, err := sketchRun(g, set, src, func(_ int, z []float64) {
		e := 0
		for u := range n {
			for p := off[u]; p < off[u+1]; p++ {
				if v := int(adj[p]); v > u {
					d := z[u] - z[v]
					acc[e] += d * d
					e++
				}
			}
		}
	})
	if err != nil {
		return nil, err
	}
	out := &EdgeResistances{Edges: g.Edges(), R: acc, SketchInfo: info}
	var foster float64
	for e := range acc {
		acc[e] /= float64(info.K)
		foster += out.Edges[e].W * acc[e]
	}
	out.setFoster(foster, n)
	return out, nil
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

// NewResistanceSketch computes the projections of ApproxEdgeResistances
// and keeps them, n·k·8 bytes, so that Between answers any pair in O(k).
// It returns an error wrapping loadlab.ErrTooLarge when they would not
// fit, and the errors of NewLaplacianSolver and Solve. It panics if g or
// src is nil.
func NewResistanceSketch(g *Graph, set *SketchSettings, src rand.Source) (*ResistanceSketch, error) {
	if g == nil || src == nil {
		panic("linalg: NewResistanceSketch: nil graph or rand.Source")
	}
	if err := set.Validate(); err != nil {
		return nil, err
	}
	eps, c, _ := set.resolved()
	n := g.Order()
	k, err := SketchProjections(max(n, 2), eps, c)
	if err != nil {
		return nil, err
	}
	nk, ok := size.Mul(n, k)
	if !ok {
		nk = -1
	}
	if err := size.Check("linalg", "NewResistanceSketch: nodes × projections", nk, 8); err != nil {
		return nil, err
	}
	rs := &ResistanceSketch{n: n, k: k, z: make([]float64, n*k)}
	scale := 1 / math.Sqrt(float64(k))
	info, err := sketchRun(g, set, src, func(i int, z []float64) {
		for u, x := range z {
			rs.z[u*k+i] = x * scale
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
		panic(loadlab.Invalid("linalg", "ResistanceSketch.Between: nodes (%d, %d) out of range [0, %d)", u, v, rs.n))
	}
	zu, zv := rs.z[u*rs.k:(u+1)*rs.k], rs.z[v*rs.k:(v+1)*rs.k]
	var s float64
	for i, x := range zu {
		d := x - zv[i]
		s += d * d
	}
	return s
}
