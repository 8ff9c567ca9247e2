package codedload

import (
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"
)

// Harmonic returns the generalised harmonic number H_{K,γ} = Σ_{j=1}^{K} j^{−γ},
// the normalising constant of the Zipf law (spec §3.2). The sum runs from the
// smallest term up, so that its rounding error stays near one ulp per term.
// It returns an error wrapping loadlab.ErrInvalid if k < 1 or γ is negative
// or not finite, and one wrapping loadlab.ErrTooLarge if k ≥ 2^31 (the sum
// costs one power per term).
func Harmonic(k int, gamma float64) (float64, error) {
	if err := checkZipf(k, gamma); err != nil {
		return 0, err
	}
	return harmonic(k, gamma), nil
}

func harmonic(k int, gamma float64) float64 {
	var h float64
	for j := k; j >= 1; j-- {
		h += math.Pow(float64(j), -gamma)
	}
	return h
}

// checkZipf validates the library size and exponent of a Zipf law.
func checkZipf(k int, gamma float64) error {
	switch {
	case k < 1:
		return loadlab.Invalid(pkg, "Files = %d, want ≥ 1", k)
	case k > maxIndex:
		return loadlab.TooLarge(pkg, "Files = %d, want < 2^31", k)
	case !(gamma >= 0) || math.IsInf(gamma, 1):
		return loadlab.Invalid(pkg, "Gamma = %v, want a finite value ≥ 0", gamma)
	}
	return nil
}

// ZipfPMF returns the Zipf popularity profile p_k = k^{−γ}/H_{K,γ} for
// ranks k = 1..K, stored at index k−1 (spec §3.2). γ = 0 gives exactly 1/K.
// It returns the errors of Harmonic, and one wrapping loadlab.ErrTooLarge if
// the K values exceed the memory budget.
func ZipfPMF(k int, gamma float64) ([]float64, error) {
	if err := checkZipf(k, gamma); err != nil {
		return nil, err
	}
	if err := size.Check(pkg, "ZipfPMF: Files", k, 8); err != nil {
		return nil, err
	}
	p := make([]float64, k)
	if gamma == 0 {
		for i := range p {
			p[i] = 1 / float64(k)
		}
		return p, nil
	}
	h := harmonic(k, gamma)
	for i := range p {
		p[i] = math.Pow(float64(i+1), -gamma) / h
	}
	return p, nil
}

// Alias samples from a fixed discrete law on 0..K−1 in O(1) per draw with
// Walker's alias method (Vose's stable construction). It works for any
// weights, so Zipf laws with exponent γ ≤ 1, which the standard library's
// rand.Zipf does not accept, are covered.
type Alias struct {
	prob  []float64 // acceptance threshold of column i
	alias []int32   // the other outcome of column i
}

// NewAlias returns the alias table of the law proportional to w. It
// returns an error wrapping loadlab.ErrInvalid if w is empty, has a
// negative or non-finite entry, or sums to zero or to +Inf, and one
// wrapping loadlab.ErrTooLarge if w has 2^31 entries or more.
func NewAlias(w []float64) (*Alias, error) {
	k := len(w)
	switch {
	case k == 0:
		return nil, loadlab.Invalid(pkg, "NewAlias: no weights")
	case k > maxIndex:
		return nil, loadlab.TooLarge(pkg, "NewAlias: %d weights, want < 2^31", k)
	}
	var sum float64
	for i, x := range w {
		if !(x >= 0) || math.IsInf(x, 1) {
			return nil, loadlab.Invalid(pkg, "NewAlias: w[%d] = %v, want finite and ≥ 0", i, x)
		}
		sum += x
	}
	if !(sum > 0) || math.IsInf(sum, 1) {
		return nil, loadlab.Invalid(pkg, "NewAlias: weights sum to %v, want finite and > 0", sum)
	}
	a := &Alias{prob: make([]float64, k), alias: make([]int32, k)}
	scaled := make([]float64, k)
	small := make([]int32, 0, k)
	large := make([]int32, 0, k)
	for i, x := range w {
		scaled[i] = x * float64(k) / sum
		if scaled[i] < 1 {
			small = append(small, int32(i))
		} else {
			large = append(large, int32(i))
		}
	}
	for len(small) > 0 && len(large) > 0 {
		s, l := small[len(small)-1], large[len(large)-1]
		small = small[:len(small)-1]
		a.prob[s], a.alias[s] = scaled[s], l
		scaled[l] -= 1 - scaled[s]
		if scaled[l] < 1 {
			large = large[:len(large)-1]
			small = append(small, l)
		}
	}
	// What is left has mass 1 up to rounding.
	for _, i := range large {
		a.prob[i], a.alias[i] = 1, i
	}
	for _, i := range small {
		a.prob[i], a.alias[i] = 1, i
	}
	return a, nil
}

// Len returns the number of outcomes.
func (a *Alias) Len() int { return len(a.prob) }

// Draw returns one outcome using a single 64-bit draw from src (a
// *rand.Rand is a rand.Source too). It panics if src is nil.
func (a *Alias) Draw(src rand.Source) int {
	if src == nil {
		panic(pkg + ": Alias.Draw: nil rand.Source")
	}
	// A uniform variate in [0, 1) from the low 53 bits, as rand.Float64.
	f := float64(src.Uint64()<<11>>11) / (1 << 53)
	// The conversion forces rounding of the product, so no fused
	// multiply-subtract changes the draw on some CPUs.
	u := float64(f * float64(len(a.prob)))
	i := min(int(u), len(a.prob)-1) // guard against rounding up to K
	if u-float64(i) < a.prob[i] {
		return i
	}
	return int(a.alias[i])
}
