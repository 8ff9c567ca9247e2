package stability

import (
	"fmt"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/internal/size"

	"gonum.org/v1/gonum/mat"
)

// JacobianOp is the Jacobian of (24) at a state x in factored form,
//
//	J = diag(D) − diag(R) B,   B = Cᵀ diag(A),
//	D_i = g_i (1 − 2x_i)(T_i − S_i),   R_i = g_i x_i (1 − x_i)
//
// (spec §5.4), held in O(N) numbers beside the network: the Jacobian of a
// sparse network without its N×N matrix. Products cost O(nnz). It
// implements mat.Matrix, entry for entry equal to Law.Jacobian (At costs
// O(log K) for sparse C). It refers to the law's network: build a new one
// after changing the network.
type JacobianOp struct {
	D, R []float64
	net  *anycast.Network
}

// JacobianOp returns the Jacobian of (24) at x in factored form (see
// JacobianOp); it copies nothing of the network and costs O(nnz). Like
// Jacobian it does not validate the law (a hot-loop method).
//
// JacobianOp panics if Law.Net is nil or len(x) ≠ N.
func (l *Law) JacobianOp(x []float64) *JacobianOp {
	n := l.net("JacobianOp").N()
	if len(x) != n {
		panic(fmt.Sprintf("stability: JacobianOp: len(x) = %d, want %d", len(x), n))
	}
	s := l.Net.Loads(nil, x) // spec §1.3 eq. (21)
	op := &JacobianOp{D: make([]float64, n), R: make([]float64, n), net: l.Net}
	for i := range x {
		op.D[i] = l.gain(i) * (1 - 2*x[i]) * (l.Net.T[i] - s[i]) // spec §5.4, diagonal
		op.R[i] = l.gain(i) * x[i] * (1 - x[i])                  // spec §5.4, row scale of −B
	}
	return op
}

// Dims returns (N, N).
func (j *JacobianOp) Dims() (r, c int) { return len(j.D), len(j.D) }

// At returns ∂F_i/∂x_k = D_i δ_ik − R_i C_ki A_k. It panics if i or k
// is out of range.
func (j *JacobianOp) At(i, k int) float64 {
	v := -j.R[i] * j.net.At(k, i) * j.net.A[k]
	if i == k {
		v += j.D[i]
	}
	return v
}

// T returns the transpose as a mat.Matrix.
func (j *JacobianOp) T() mat.Matrix { return mat.Transpose{Matrix: j} }

// MulVec computes dst = J v, that is dst_i = D_i v_i − R_i (B v)_i, in
// O(nnz), and returns dst (a new slice if dst is nil; it may not alias v).
//
// MulVec panics if len(v) or a non-nil len(dst) differs from N.
func (j *JacobianOp) MulVec(dst, v []float64) []float64 {
	dst = j.net.Loads(dst, v) // B v: Loads takes any vector
	for i := range dst {
		dst[i] = j.D[i]*v[i] - j.R[i]*dst[i]
	}
	return dst
}

// faceSplit returns the nodes of x on a face (x_i ∈ {0, 1}) and the
// others. On a face R_i = 0 exactly, so row i of J is D_i e_i.
func faceSplit(x []float64) (face, rest []int) {
	for i, v := range x {
		if v == 0 || v == 1 {
			face = append(face, i)
		} else {
			rest = append(rest, i)
		}
	}
	return face, rest
}

// subMatrix returns the |I|×|I| block M_ab = scale_a·(C_{I_b I_a} A_{I_b})
// + diag_a δ_ab, assembled from the columns of C in O(nnz + |I|²) (diag may
// be nil), or an error wrapping loadlab.ErrTooLarge if it would not fit in
// memory; in must not be empty. With scale = −R and diag = D it is J_II; with scale = 1 and no
// diag it is B_II = (Cᵀ diag(A))_II.
func subMatrix(nw *anycast.Network, in []int, scale, diag []float64) (*mat.Dense, error) {
	if err := size.Check("stability", "interior block |I|²", len(in)*len(in), 8); err != nil {
		return nil, err
	}
	pos := make(map[int]int, len(in))
	for a, i := range in {
		pos[i] = a
	}
	m := mat.NewDense(len(in), len(in), nil)
	for a, i := range in {
		rows, vals := nw.Col(i) // C_ki for the k with an entry
		for q, k := range rows {
			if b, ok := pos[k]; ok {
				v := vals[q] * nw.A[k] // (Cᵀ diag(A))_ik, spec §1.3
				if scale != nil {
					v = -scale[a] * vals[q] * nw.A[k]
				}
				m.Set(a, b, v)
			}
		}
		if diag != nil {
			m.Set(a, a, m.At(a, a)+diag[a])
		}
	}
	return m, nil
}

// sparseEigen returns the eigenvalues of the Jacobian at x for a sparse
// network without forming it: the face nodes' rows are D_i e_i, so J is
// block triangular and its spectrum is {D_i : x_i ∈ {0, 1}} (closed form,
// as at a corner) together with the spectrum of the interior block J_II,
// the one dense eigendecomposition, of size |I| (spec §5.4).
func (l *Law) sparseEigen(x []float64) ([]complex128, error) {
	op := l.JacobianOp(x)
	face, in := faceSplit(x)
	ev := make([]complex128, 0, len(x))
	for _, i := range face {
		ev = append(ev, complex(op.D[i], 0))
	}
	if len(in) == 0 {
		return ev, nil
	}
	r, d := make([]float64, len(in)), make([]float64, len(in))
	for a, i := range in {
		r[a], d[a] = op.R[i], op.D[i]
	}
	jii, err := subMatrix(l.Net, in, r, d)
	if err != nil {
		return nil, err
	}
	var eig mat.Eigen
	if !eig.Factorize(jii, mat.EigenNone) {
		return nil, loadlab.Wrap(loadlab.ErrIllConditioned, "stability", "eigendecomposition of the interior block (%d nodes) of the Jacobian failed", len(in))
	}
	return append(ev, eig.Values(nil)...), nil
}
