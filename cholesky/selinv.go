package cholesky

import (
	"github.com/loadlab/loadlab/internal/dense"
	"gonum.org/v1/gonum/blas"
)

// Inverse holds the entries of A⁻¹ on the pattern of the Cholesky factor
// (selected inversion; spec sparse-cholesky.md §4). The pattern contains
// A's own pattern, so every A_ij ≠ 0 has its (A⁻¹)_ij here, and the
// whole diagonal.
type Inverse struct {
	f  *Factor
	zx []float64 // Z = (P A Pᵀ)⁻¹ on the factor's pattern
}

// Inverse computes the selected inverse (about twice the factorisation's
// cost, and as much memory as the factor's values).
//
// With P A Pᵀ = L Lᵀ, Z = (P A Pᵀ)⁻¹ satisfies the Takahashi recurrences
// over the supernodes J from the last, where S is J's rows below its
// columns, L_JJ = Uᵀ its diagonal block and X = L_SJ L_JJ⁻¹ (spec
// sparse-cholesky.md §4):
//
//	Z_SJ = −Z_SS X,    Z_JJ = (L_JJ L_JJᵀ)⁻¹ − Xᵀ Z_SJ.
//
// S is a clique of the filled graph, so Z_SS lies on the pattern of the
// supernodes after J, already computed.
func (f *Factor) Inverse() *Inverse {
	s := f.sym
	z := &Inverse{f: f, zx: make([]float64, len(f.lx))}
	newWork := func() any { return &invWork{} }
	s.tree.run(s.sn.count(), true, newWork, func(J int, w any) { z.supernode(J, w.(*invWork)) })
	return z
}

// invWork is one goroutine's workspace of the selected inversion: −Xᵀ
// and Z_SJ by rows (w × |S| and |S| × w), Z_SS (|S|²), and the positions
// of S's rows in an ancestor's rows.
type invWork struct {
	xt, yt, zss []float64
	neg, head   []float64 // the solves' scratch, invertHead's Vᵀ
	rel         []int
}

// invWorkBytes is the largest invWork: Z_SS and the positions for the
// largest |S|, −Xᵀ and Z_SJ for the largest w·|S|, and invertHead's Vᵀ
// for the widest head from blockedMin columns.
func invWorkBytes(sn *supernodes) int {
	b := 8*sn.maxS*sn.maxS + 8*sn.maxS + 16*sn.maxWS
	if sn.maxW >= blockedMin {
		b += 8 * sn.maxW * sn.maxW
	}
	return b
}

// supernode computes J's panel of Z from the panels after it.
func (z *Inverse) supernode(J int, w *invWork) {
	s := z.f.sym
	sn := s.sn
	j0, j1 := sn.start[J], sn.start[J+1]
	wd := j1 - j0
	ld := s.lp[j0+1] - s.lp[j0]
	m := ld - wd
	lpan, zpan := z.f.lx[sn.base[J]:sn.base[J+1]], z.zx[sn.base[J]:sn.base[J+1]]
	w.neg = scratch(w.neg, blockedNB*wd)
	invertHead(wd, lpan, ld, zpan, w)
	if m == 0 {
		return
	}
	w.xt, w.yt = scratch(w.xt, wd*m), scratch(w.yt, wd*m)
	xt, yt := w.xt, w.yt
	for c := range wd {
		copy(xt[c*m:(c+1)*m], lpan[c*ld+wd:(c+1)*ld])
	}
	solveUN(wd, m, lpan, ld, xt, m, w.neg)
	for i := range xt { // −Xᵀ, so that both products below are additions
		xt[i] = -xt[i]
	}
	zss := z.gather(s.li[s.lp[j0]+wd:s.lp[j0+1]], w)
	for c := range wd { // Z_SJᵀ = −Xᵀ Z_SS
		clear(zpan[c*ld+wd : (c+1)*ld])
	}
	dense.MulAdd(wd, m, m, xt, m, 1, zss, m, zpan[wd:], ld)
	for c := range wd { // Z_SJ, by rows, for the second product
		for k, v := range zpan[c*ld+wd : (c+1)*ld] {
			yt[k*wd+c] = v
		}
	}
	dense.MulAdd(wd, wd, m, xt, m, 1, yt, wd, zpan, ld) // Z_JJ = (L_JJ L_JJᵀ)⁻¹ − Xᵀ Z_SJ
	for c := 1; c < wd; c++ {                           // the product also wrote the unused entries
		clear(zpan[c*ld : c*ld+c])
	}
}

// invertHead writes (UᵀU)⁻¹ = (L_JJ L_JJᵀ)⁻¹ for the head U of the panel
// lpan into the upper triangle of zpan's head: by LAPACK's dpotri below
// blockedMin columns, else as V Vᵀ with Vᵀ = U⁻ᵀ solved from the
// identity by solveUT (one w × w buffer: V is read as Vᵀ's columns), the
// product by dense.MulAdd (about twice dpotri's flops,
// on both cores at the kernel's speed: the top separator of the
// 1000 × 1000 torus has about 2000 columns). w.neg must hold
// blockedNB·wd values.
func invertHead(wd int, lpan []float64, ld int, zpan []float64, w *invWork) {
	if wd < blockedMin {
		for c := range wd {
			copy(zpan[c*ld+c:c*ld+wd], lpan[c*ld+c:c*ld+wd])
		}
		lapackImpl.Dpotri(blas.Upper, wd, zpan, ld)
		return
	}
	w.head = scratch(w.head, wd*wd)
	vt := w.head // Vᵀ = U⁻ᵀ, solved from the identity
	clear(vt)
	for i := range wd {
		vt[i*wd+i] = 1
	}
	solveUT(wd, wd, lpan, ld, vt, wd, w.neg)
	for c := range wd {
		clear(zpan[c*ld : c*ld+wd])
	}
	// V Vᵀ, V read as Vᵀ's columns.
	dense.MulAdd(wd, wd, wd, vt, 1, wd, vt, wd, zpan, ld)
	for c := 1; c < wd; c++ { // only the upper triangle is kept
		clear(zpan[c*ld : c*ld+c])
	}
}

// gather returns Z_SS for the rows S (sorted), as a dense symmetric
// |S| × |S| matrix in w.zss. The rows of S that are columns of one
// supernode K form a run of S, and every row of S from that run on lies
// in K's rows (S is a clique), so each run is read from K's panel
// through the positions of S's rows in K's.
func (z *Inverse) gather(rows []int32, w *invWork) []float64 {
	s := z.f.sym
	sn := s.sn
	m := len(rows)
	w.zss, w.rel = scratch(w.zss, m*m), scratch(w.rel, m)
	zss, rel := w.zss, w.rel
	for b0 := 0; b0 < m; {
		K := sn.of[rows[b0]]
		k0, k1 := sn.start[K], sn.start[K+1]
		krows := s.li[s.lp[k0]:s.lp[k0+1]]
		ldk := len(krows)
		q := 0
		for a := b0; a < m; a++ {
			for krows[q] < rows[a] {
				q++
			}
			rel[a] = q
		}
		b1 := b0
		for b1 < m && int(rows[b1]) < k1 {
			b1++
		}
		kz := z.zx[sn.base[K]:sn.base[K+1]]
		for b := b0; b < b1; b++ {
			col := kz[(int(rows[b])-k0)*ldk:]
			for a := b; a < m; a++ {
				v := col[rel[a]]
				zss[a*m+b], zss[b*m+a] = v, v
			}
		}
		b0 = b1
	}
	return zss
}

// Diag returns the diagonal of A⁻¹ in dst (allocated if nil), in the
// original order. It panics if a non-nil dst does not have length N.
func (z *Inverse) Diag(dst []float64) []float64 {
	s := z.f.sym
	if dst == nil {
		dst = make([]float64, s.n)
	}
	if len(dst) != s.n {
		panic("cholesky: Inverse.Diag: len(dst) differs from the order")
	}
	for k, i := range s.perm {
		dst[i] = z.zx[s.sn.xp[k]]
	}
	return dst
}

// Trace returns tr A⁻¹, summed with compensation.
func (z *Inverse) Trace() float64 {
	return dense.Sum(z.Diag(nil))
}

// At returns (A⁻¹)_ij and true when (i, j) lies on the factor's pattern
// (every stored entry of A does), and 0 and false otherwise. It panics if
// i or j is out of range.
func (z *Inverse) At(i, j int) (float64, bool) {
	s := z.f.sym
	if i < 0 || i >= s.n || j < 0 || j >= s.n {
		panic("cholesky: Inverse.At: index out of range")
	}
	r, c := s.pinv[i], s.pinv[j]
	if r < c {
		r, c = c, r
	}
	lo, hi := s.lp[c], s.lp[c+1]
	for lo < hi { // binary search for row r in column c
		m := int(uint(lo+hi) >> 1)
		if int(s.li[m]) < r {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < s.lp[c+1] && int(s.li[lo]) == r {
		return z.zx[s.sn.xp[c]+lo-s.lp[c]], true
	}
	return 0, false
}
