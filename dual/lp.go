package dual

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/internal/size"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
)

// lpTol is the reduced-cost tolerance handed to lp.Simplex. It only
// decides when the simplex stops pivoting; the reported Value and Lower
// are re-evaluated from the returned points, so the certificate does not
// depend on it.
const lpTol = 1e-12

// linearCosts reports whether every f_i is LinearX and every h_i is
// Overload, the case in which P1 is a linear program, and returns the
// slopes k_i (f_i(x) = k_i (1 − x)) and the overload prices and
// capacities of h_i.
func linearCosts(p *Problem) (k, price, cap []float64, ok bool) {
	n := p.N()
	k, price, cap = make([]float64, n), make([]float64, n), make([]float64, n)
	for i := 0; i < n; i++ {
		f, okf := p.F[i].(LinearX)
		h, okh := p.H[i].(Overload)
		if !okf || !okh {
			return nil, nil, nil, false
		}
		k[i], price[i], cap[i] = f.W*f.A, h.C, h.T
	}
	return k, price, cap, true
}

// simplex solves min cᵀz, a z = b, z ≥ 0 with gonum's lp.Simplex after
// flipping the rows with b < 0, so that a basis of slacks is feasible
// whenever every row has a slack of its own (slack[r] is its column, or
// −1 if it has none, in which case the simplex finds a basis itself).
func simplex(c []float64, a *mat.Dense, b []float64, slack []int) ([]float64, error) {
	rows, _ := a.Dims()
	basis := make([]int, rows)
	for r := 0; r < rows; r++ {
		if b[r] < 0 {
			b[r] = -b[r]
			row := a.RawRowView(r)
			for j := range row {
				row[j] = -row[j]
			}
		}
		if slack[r] < 0 || a.At(r, slack[r]) <= 0 {
			basis = nil
		} else if basis != nil {
			basis[r] = slack[r]
		}
	}
	_, z, err := lp.Simplex(c, a, b, lpTol, basis)
	return z, err
}

// primalLP solves P1 exactly when it is a linear program (LinearX and
// Overload costs): spec §3 with f_i(x) = k_i (1 − x_i) and
// h_i(S) = c_i (S − T_i)₊. With S = S^obs(x) = B x (spec §1.3 eq. (22))
// and an overload variable u_i ≥ (B x)_i − T_i it reads
//
//	minimise Σ_i c_i u_i − Σ_i k_i x_i  (+ Σ_i k_i)
//	subject to B x − u ≤ T,  B x ≤ S̄,  x ≤ 1,  x, u ≥ 0.
//
// Its certificate comes from a second simplex solve, of the dual of P1
// written as an LP (spec §4.2 eqs. (11)–(13) with these costs):
// D(μ) = Σ_i [k_i − (k_i − A_i β_i)₊] + Σ_i min_{S ∈ {0, m_i, S̄_i}}
// [h_i(S) − μ_i S], m_i = clip(T_i, 0, S̄_i), because the S sub-problem
// is piecewise linear with kinks only there. D is then re-evaluated with
// Eval at the μ found, so Lower is a true lower bound whatever the
// simplex's rounding.
func primalLP(p *Problem, k, price, cap []float64) (*PrimalResult, error) {
	n := p.N()
	if cells, ok := size.Product(15, n, n); !ok || size.Check("dual", "Primal: dense simplex tableau of the linear P1", cells, 8) != nil {
		return nil, loadlab.TooLarge("dual", "Primal: the linear P1 with N = %d needs a dense simplex tableau of 15·N² values", n)
	}
	p = densified(p)
	nw := p.Net

	// Primal LP: z = (x, u, s1, s2, s3), rows B x − u + s1 = T,
	// B x + s2 = S̄, x + s3 = 1.
	a := mat.NewDense(3*n, 5*n, nil)
	b := make([]float64, 3*n)
	c := make([]float64, 5*n)
	slack := make([]int, 3*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			bij := nw.A[j] * nw.C.At(j, i) // B_ij = A_j C_ji (spec §1.3)
			a.Set(i, j, bij)
			a.Set(n+i, j, bij)
		}
		a.Set(i, n+i, -1)
		a.Set(2*n+i, i, 1)
		b[i], b[n+i], b[2*n+i] = cap[i], p.SMax[i], 1
		c[i], c[n+i] = -k[i], price[i]
	}
	for r := 0; r < 3*n; r++ {
		a.Set(r, 2*n+r, 1)
		slack[r] = 2*n + r
	}
	z, err := simplex(c, a, b, slack)
	if err != nil {
		return nil, fmt.Errorf("dual: primal simplex on the linear P1: %w", err)
	}
	x := make([]float64, n)
	for i := range x {
		x[i] = clip(z[i], 0, 1)
	}
	obs := nw.Loads(nil, x)
	mu, err := dualLP(p, k, cap)
	if err != nil {
		return nil, err
	}
	pt, err := p.Eval(mu)
	if err != nil {
		return nil, err
	}
	return &PrimalResult{
		X: x, S: obs, Value: p.reduced(x, obs),
		Mu: mu, Lower: pt.D,
		LP: true,
	}, nil
}

// dualLP solves the dual of the linear P1 (see primalLP) and returns its
// multipliers μ ≥ 0.
func dualLP(p *Problem, k, cap []float64) ([]float64, error) {
	n := p.N()
	nw := p.Net
	// Dual LP: z = (μ, a', b', s_a, s_b, s_c) with a'_i = (k_i − A_i β_i)₊
	// and b'_i = h_i(0) − min_S [h_i(S) − μ_i S], maximising
	// D = Σ k_i + Σ h_i(0) − Σ a'_i − Σ b'_i:
	//	a'_i + A_i Σ_j C_ij μ_j − s_a = k_i
	//	b'_i − m_i μ_i − s_c = h_i(0) − h_i(m_i)
	//	b'_i − S̄_i μ_i − s_d = h_i(0) − h_i(S̄_i)
	// A μ_i whose column would be zero (nothing reaches proxy i and
	// S̄_i = 0) does not enter D; it is left out (μ_i = 0), since
	// lp.Simplex rejects zero columns.
	h := func(i int, s float64) float64 { return p.H[i].Value(s) }
	used := make([]int, 0, n) // columns of the μ kept
	for i := 0; i < n; i++ {
		nz := p.SMax[i] > 0
		for j := 0; j < n && !nz; j++ {
			nz = nw.A[j]*nw.C.At(j, i) != 0
		}
		if nz {
			used = append(used, i)
		}
	}
	m := len(used)
	cols := m + 5*n
	da := mat.NewDense(3*n, cols, nil)
	db := make([]float64, 3*n)
	dc := make([]float64, cols)
	dslack := make([]int, 3*n)
	for col, i := range used {
		for j := 0; j < n; j++ {
			da.Set(j, col, nw.A[j]*nw.C.At(j, i)) // A_j C_ji: μ_i's part of A_j β_j
		}
		mi := clip(cap[i], 0, p.SMax[i])
		da.Set(n+i, col, -mi)
		da.Set(2*n+i, col, -p.SMax[i])
	}
	for i := 0; i < n; i++ {
		mi := clip(cap[i], 0, p.SMax[i])
		da.Set(i, m+i, 1)       // a'_i
		da.Set(n+i, m+n+i, 1)   // b'_i
		da.Set(2*n+i, m+n+i, 1) // b'_i
		dc[m+i], dc[m+n+i] = 1, 1
		db[i] = k[i]
		db[n+i] = h(i, 0) - h(i, mi)
		db[2*n+i] = h(i, 0) - h(i, p.SMax[i])
	}
	for r := 0; r < 3*n; r++ {
		da.Set(r, m+2*n+r, -1) // surplus; a slack only where the row is flipped
		dslack[r] = m + 2*n + r
	}
	dz, err := simplex(dc, da, db, dslack)
	if err != nil {
		return nil, fmt.Errorf("dual: dual simplex on the linear P1: %w", err)
	}
	mu := make([]float64, n)
	for col, i := range used {
		mu[i] = math.Max(0, dz[col])
	}
	return mu, nil
}

// densified returns p itself for a dense network, and a shallow copy
// whose network holds a dense copy of a sparse C otherwise (O(N²)
// memory): the LP path of Primal, whose simplex tableau is dense anyway
// (15 N² values), reads C densely.
func densified(p *Problem) *Problem {
	if p == nil || p.Net == nil || p.Net.Sparse == nil {
		return p
	}
	q := *p
	q.Net = denseNet(p.Net)
	return &q
}

// denseNet returns nw, or a copy with a sparse C stored densely.
func denseNet(nw *anycast.Network) *anycast.Network {
	if nw == nil || nw.Sparse == nil {
		return nw
	}
	return &anycast.Network{A: nw.A, C: mat.DenseCopyOf(nw.Sparse), T: nw.T}
}
