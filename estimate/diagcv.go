package estimate

import (
	"math"

	"github.com/loadlab/loadlab/internal/lanczos"
	"github.com/loadlab/loadlab/internal/lapmat"
	"github.com/loadlab/loadlab/internal/par"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/laplacian"
	"github.com/loadlab/loadlab/wgraph"
	"gonum.org/v1/gonum/lapack/gonum"
)

// Chebyshev control variates for the diagonal estimators (diag.go; spec
// throttlers.md §12.9).
//
// The stochastic diagonal estimator of a matrix F = f(L) on 1⊥ (L† or
// P(2I − γL)⁻¹P) takes per node j the probe values q_j (F q)_j, whose
// variance Σ_{i≠j} F_ij² is of the order of F_jj² on an expander: 1 %
// would take about 10⁴ probes. With a polynomial p close to f on the
// spectrum, whose diagonal is computed exactly, the estimator
//
//	z_j = q_j ((F − P p(L) P) q)_j + (P p(L) P)_jj
//
// has the same mean F_jj (for any p: the control variate is exact in
// expectation) and variance Σ_{i≠j} (F − PpP)_ij², which is at most
// max |f − p|² over the spectrum. Since L1 = 0, P p(L) P = p(L) − p(0)
// 11ᵀ/n and P p(L) P q = p(L) Pq, so each probe costs K extra products
// with L on top of its solve.
//
// p is the Chebyshev interpolant of degree K of f on [a, b], in the
// variable S = (2L − (a + b)I)/(b − a): p(L) = Σ_k c_k T_k(S). Its
// diagonal is Σ_k c_k μ_k(j) with the local moments μ_k(j) = T_k(S)_jj
// (the moments of the kernel polynomial method: Weiße, Wellein, Alvermann
// and Fehske, Rev. Mod. Phys. 78, 2006), computed exactly from the sparse
// vectors w_h = T_h(S) e_j, supported on the ball of radius h around j:
//
//	μ_{2h} = 2‖w_h‖² − 1,   μ_{2h−1} = 2 w_hᵀw_{h−1} − μ₁,
//
// from T_{2h} = 2T_h² − 1 and T_{2h−1} = 2T_hT_{h−1} − T₁, so K = 2H at
// the cost of H sparse products per node, Σ_{r<H} vol(ball(r)) edge
// visits. H is the largest depth for which that stays within cvWork per
// node on average (H = 4, K = 8 on a random 6-regular graph; H = 3,
// K = 6 on a hypercube of degree 16–20; H = 12 on a 2-D torus). More depth
// costs moments and saves probes: on the 2¹⁶-node hypercube K = 6 needs
// 149 probes for 1 % against 759 at K = 4, in about a fifth of the time.
// (μ_{2H+1} would take one more pass over the neighbours of ball(H), as
// costly as the step to depth H + 1 that gives two moments.)
//
// The estimators run both the control-variate and the plain probe values
// for the first MinProbes probes and keep the one with the smaller
// largest relative half-width (a pilot; on the graphs of the tests the
// control variate wins everywhere, tori included, but nothing guarantees
// it for every spectrum).
//
// b is the certified upper bound of λ_n (spectral.LambdaMaxBounds) and a
// is 0.9 times the smallest Ritz value of cvLanczosSteps Lanczos steps on
// 1⊥, an estimate of λ₂ from above: the few eigenvalues below a make p a
// poorer fit there, which adds variance, never bias.
const (
	cvWork         = 5000 // edge visits per node of the local moments, on average
	cvMaxDepth     = 12   // largest H (K = 24)
	cvSample       = 64   // nodes whose balls are measured to choose H
	cvLanczosSteps = 30
)

// chebCV is the Chebyshev control variate of one graph: the interval,
// the degree and the local moments of every node.
type chebCV struct {
	n      int
	a, b   float64
	k      int       // degree K = 2H
	mu     []float64 // μ_k(j) at j·(K+1) + k
	c1, c0 float64   // S = c1·L + c0·I
}

// newChebCV chooses [a, b] and the depth and computes the local moments.
// It returns ErrTooLarge when the moments do not fit.
func newChebCV(g *wgraph.Graph, op *laplacian.Operator, lmaxHi float64, seed uint64) (*chebCV, error) {
	n := g.Order()
	h := cvDepth(g)
	k := 2 * h
	if err := size.Check("estimate", "PinvDiag: local moments, nodes", n, 8*(k+1)); err != nil {
		return nil, err
	}
	a := 0.9 * lanczosLow(op, seed)
	b := lmaxHi
	if !(a > 0) || a >= b {
		a = b / 1e3
	}
	lm, err := lapmat.New(g)
	if err != nil || lm == nil {
		if err == nil {
			err = wgraph.CheckConnected(g)
		}
		return nil, err
	}
	cv := &chebCV{n: n, a: a, b: b, k: k, c1: 2 / (b - a), c0: -(a + b) / (b - a)}
	cv.mu = make([]float64, n*(k+1))
	cv.moments(lm, h)
	return cv, nil
}

// lanczosLow returns the smallest Ritz value of cvLanczosSteps Lanczos
// steps of L on 1⊥ (0 if the process fails).
func lanczosLow(op *laplacian.Operator, seed uint64) float64 {
	n := op.Order()
	z := make([]float64, n)
	for i := range z {
		z[i] = 1 / math.Sqrt(float64(n))
	}
	lz := lanczos.New(n, func(dst, src []float64) error { op.Apply(dst, src); return nil }, z, [2]uint64{seed, 0x2545f4914f6cdd1d})
	for lz.Steps() < min(cvLanczosSteps, n-1) && !lz.Done {
		if err := lz.Step(); err != nil {
			return 0
		}
	}
	k := lz.Steps()
	if k == 0 {
		return 0
	}
	d := append([]float64(nil), lz.Alpha...)
	e := append([]float64(nil), lz.Beta[:k-1]...)
	if !(gonum.Implementation{}).Dsterf(k, d, e) {
		return 0
	}
	return d[0]
}

// cvDepth returns the largest H ≤ cvMaxDepth whose mean work over up to
// cvSample evenly spaced nodes, Σ_{r < H} vol(ball(r)) edge visits, is at
// most cvWork (at least 1). A node whose balls pass 16·cvWork stops the
// search at that depth for all (its breadth-first search stops there).
func cvDepth(g *wgraph.Graph) int {
	n := g.Order()
	m := min(n, cvSample)
	work := make([]float64, cvMaxDepth+1)
	stamp := make([]int32, n)
	for s := range m {
		src := int32(s * n / m)
		stamp[src] = int32(s + 1)
		frontier := []int32{src}
		vol, cum := 0.0, 0.0
		for h := 0; h <= cvMaxDepth; h++ {
			if cum > 16*cvWork {
				work[h] = math.Inf(1)
				continue
			}
			var next []int32
			for _, u := range frontier {
				vol += float64(g.Degree(int(u)))
				for _, v := range g.Neighbors(int(u)) {
					if stamp[v] != int32(s+1) {
						stamp[v] = int32(s + 1)
						next = append(next, v)
					}
				}
			}
			cum += vol
			work[h] += cum
			frontier = next
		}
	}
	h := 1 // work[h] is the cost of depth h + 1
	for h < cvMaxDepth && work[h] <= cvWork*float64(m) {
		h++
	}
	return h
}

// cvScratch is one worker's workspace of the local moments. The nodes
// of the current ball get local indices in order of first touch (list
// maps them back); a small open-addressing table maps node → local index,
// so that the lookups of a ball's neighbours stay in L1 instead of
// reaching into n-sized arrays (at 10⁶ nodes, 3× slower).
type cvScratch struct {
	keys []int32 // node per slot, −1 when empty; length a power of 2
	slot []int32 // local index per slot
	pos  []int32 // slot per local index, to empty the table
	bits uint
	list []int32      // node per local index
	w    [3][]float64 // w_{h−1}, w_h, w_{h+1} (roles rotate) by local index
}

func newCVScratch() *cvScratch {
	s := &cvScratch{}
	s.grow(6)
	return s
}

// grow resizes the table to 2^bits slots (and the local arrays to half
// of that), reinserting the current nodes.
func (s *cvScratch) grow(bits uint) {
	s.bits = bits
	s.keys, s.slot = make([]int32, 1<<bits), make([]int32, 1<<bits)
	for i := range s.keys {
		s.keys[i] = -1
	}
	c := 1 << (bits - 1)
	for r := range s.w {
		w := make([]float64, c)
		copy(w, s.w[r])
		s.w[r] = w
	}
	s.pos = s.pos[:0]
	for li, k := range s.list {
		p := s.probe(k)
		s.keys[p], s.slot[p] = k, int32(li)
		s.pos = append(s.pos, int32(p))
	}
}

// probe returns k's slot, or the empty slot where it would go.
func (s *cvScratch) probe(k int32) int {
	mask := len(s.keys) - 1
	p := int((uint32(k) * 0x9e3779b1) >> (32 - s.bits))
	for s.keys[p] != -1 && s.keys[p] != k {
		p = (p + 1) & mask
	}
	return p
}

// find returns k's local index, or −1.
func (s *cvScratch) find(k int32) int {
	p := s.probe(k)
	if s.keys[p] == -1 {
		return -1
	}
	return int(s.slot[p])
}

// touch returns k's local index, adding k with zero values if new.
func (s *cvScratch) touch(k int32) int {
	p := s.probe(k)
	if s.keys[p] == k {
		return int(s.slot[p])
	}
	li := len(s.list)
	if 2*(li+1) > len(s.keys) {
		s.list = append(s.list, k)
		s.grow(s.bits + 1)
		return li
	}
	s.keys[p], s.slot[p] = k, int32(li)
	s.list, s.pos = append(s.list, k), append(s.pos, int32(p))
	s.w[0][li], s.w[1][li], s.w[2][li] = 0, 0, 0
	return li
}

// reset empties the table for the next node.
func (s *cvScratch) reset() {
	for _, p := range s.pos {
		s.keys[p] = -1
	}
	s.list, s.pos = s.list[:0], s.pos[:0]
}

// moments fills cv.mu for every node, the nodes split in fixed pieces
// over the cores (each node's moments depend only on the graph). It runs
// on the breadth-first renumbered copy lm: consecutive nodes there have
// overlapping balls stored close together, so their rows stay in cache
// (at 10⁶ nodes the reads of the rows are most of the time).
func (cv *chebCV) moments(lm *lapmat.Matrix, h int) {
	n := cv.n
	deg := lm.Degrees()
	pieces := par.Pieces(n, 256, 1024)
	workers := min(par.Workers(0), pieces)
	scratch := make(chan *cvScratch, workers)
	for range workers {
		scratch <- newCVScratch()
	}
	par.For(pieces, workers, func(piece int) {
		s := <-scratch
		lo, hi := par.Bounds(n, pieces, piece)
		for i := lo; i < hi; i++ {
			cv.nodeMoments(lm, deg, s, i, h)
		}
		scratch <- s
	})
}

// nodeMoments computes μ_0..μ_{2H} of internal node i (original node
// lm.Perm[i]). The roles of s.w rotate: ip, ic, in index w_{r−2},
// w_{r−1} and the w_r being formed.
func (cv *chebCV) nodeMoments(lm *lapmat.Matrix, deg []float64, s *cvScratch, i, h int) {
	s.reset()
	s.touch(int32(i))
	j := int(lm.Perm[i])
	mu := cv.mu[j*(cv.k+1) : (j+1)*(cv.k+1)]
	ip, ic, in := 0, 1, 2
	s.w[ic][0] = 1
	mu[0] = 1
	mu[1] = cv.c1*deg[i] + cv.c0
	for r := 1; r <= h; r++ {
		m := len(s.list)
		clear(s.w[in][:m]) // held w_{r−3} on part of this support
		cv.scatter(lm, deg, s, ic, in, m)
		prev, cur, next := s.w[ip], s.w[ic], s.w[in]
		var nn, nc float64
		for li := range s.list {
			if r > 1 { // w_r = 2 S w_{r−1} − w_{r−2}; w_1 = S w_0
				next[li] = 2*next[li] - prev[li]
			}
			nn += next[li] * next[li]
			nc += next[li] * cur[li]
		}
		mu[2*r] = 2*nn - 1
		mu[2*r-1] = 2*nc - mu[1]
		ip, ic, in = ic, in, ip
	}
}

// scatter adds S x into y (x = s.w[ix], y = s.w[iy]) for the first m
// local nodes (x's support), touching their neighbours.
func (cv *chebCV) scatter(lm *lapmat.Matrix, deg []float64, s *cvScratch, ix, iy, m int) {
	for li := 0; li < m; li++ {
		xi := s.w[ix][li]
		if xi == 0 {
			continue
		}
		u := int(s.list[li])
		e0, e1 := lm.Span(u)
		for e, k := range lm.Adj[e0:e1] {
			w := lm.Wc
			if lm.W != nil {
				w = lm.W[e0+e]
			}
			lk := s.touch(k) // may grow s.w: index it afterwards
			s.w[iy][lk] -= cv.c1 * w * xi
		}
		s.w[iy][li] += (cv.c1*deg[u] + cv.c0) * xi
	}
}

// coeffs returns the Chebyshev interpolation coefficients c_0..c_K of f
// on [a, b] (at the K + 1 Chebyshev points of the first kind).
func (cv *chebCV) coeffs(f func(float64) float64) []float64 {
	k1 := cv.k + 1
	fx := make([]float64, k1)
	for i := range fx {
		t := math.Cos(math.Pi * (float64(i) + 0.5) / float64(k1))
		fx[i] = f((cv.a+cv.b)/2 + (cv.b-cv.a)/2*t)
	}
	c := make([]float64, k1)
	for k := range c {
		var s float64
		for i, v := range fx {
			s += v * math.Cos(math.Pi*float64(k)*(float64(i)+0.5)/float64(k1))
		}
		c[k] = 2 * s / float64(k1)
	}
	c[0] /= 2
	return c
}

// diag returns (P p(L) P)_jj = Σ_k c_k μ_k(j) − p(0)/n for every node.
func (cv *chebCV) diag(c []float64) []float64 {
	p0, t0, t1 := c[0], 1.0, cv.c0 // T_k(S) at L = 0 is T_k(c0)
	for k := 1; k < len(c); k++ {
		p0 += c[k] * t1
		t0, t1 = t1, 2*cv.c0*t1-t0
	}
	d := make([]float64, cv.n)
	k1 := cv.k + 1
	for j := range d {
		var s float64
		for k, ck := range c {
			s += ck * cv.mu[j*k1+k]
		}
		d[j] = s - p0/float64(cv.n)
	}
	return d
}

// cvApply holds the vectors of the Chebyshev recurrence of a probe.
type cvApply struct {
	t0, t1, t2, lt []float64
}

func newCVApply(n int) *cvApply {
	return &cvApply{t0: make([]float64, n), t1: make([]float64, n), t2: make([]float64, n), lt: make([]float64, n)}
}

// apply sets out[m] = p_m(L) v = Σ_k c[m][k] T_k(S) v for each set of
// coefficients, by the three-term recurrence (K products with L).
func (cv *chebCV) apply(out [][]float64, c [][]float64, v []float64, op *laplacian.Operator, w *cvApply) {
	copy(w.t0, v)
	for m := range out {
		for i, x := range v {
			out[m][i] = c[m][0] * x
		}
	}
	t0, t1, t2 := w.t0, w.t1, w.t2
	for k := 1; k <= cv.k; k++ {
		op.Apply(w.lt, t0)
		f := 2.0
		if k == 1 {
			f = 1
		}
		for i := range t2 {
			s := cv.c1*w.lt[i] + cv.c0*t0[i]
			if k == 1 {
				t2[i] = s
			} else {
				t2[i] = f*s - t1[i]
			}
		}
		for m := range out {
			ck := c[m][k]
			for i, x := range t2 {
				out[m][i] += ck * x
			}
		}
		t0, t1, t2 = t2, t0, t1
	}
}
