package coding

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/klauspost/reedsolomon"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/internal/size"
)

// LT is a Luby transform (fountain) code over k source chunks with the
// robust soliton degree law of parameters c and δ (spec coded-load.md
// §11.7): an encoded symbol is the exclusive or of d distinct source
// chunks drawn uniformly, d drawn from the law; a receiver decodes by
// peeling. Unlike the random linear code it needs no field arithmetic,
// and it pays with a larger reception overhead.
type LT struct {
	k              int
	c, delta, beta float64
	pmf, cdf       []float64 // pmf[d−1] = μ(d), d = 1 … k
}

// MaxLTChunks is the largest k of NewLT (the degree law has k entries
// and a symbol up to k neighbours).
const MaxLTChunks = 1 << 20

// NewLT returns the LT code of k source chunks with the robust soliton
// law of parameters c > 0 and δ in (0, 1) (spec §11.7). k outside
// [1, MaxLTChunks], or c, δ outside their domains, is an error wrapping
// loadlab.ErrInvalid.
func NewLT(k int, c, delta float64) (*LT, error) {
	switch {
	case k < 1 || k > MaxLTChunks:
		return nil, loadlab.Invalid(pkg, "NewLT: k = %d, want 1 … %d", k, MaxLTChunks)
	case !(c > 0) || math.IsInf(c, 1):
		return nil, loadlab.Invalid(pkg, "NewLT: c = %v, want finite and > 0", c)
	case !(delta > 0 && delta < 1):
		return nil, loadlab.Invalid(pkg, "NewLT: δ = %v, want 0 < δ < 1", delta)
	}
	pmf, beta := robustSoliton(k, c, delta)
	l := &LT{k: k, c: c, delta: delta, beta: beta, pmf: pmf}
	l.cdf = make([]float64, k)
	s := 0.0
	for i, p := range l.pmf {
		s += p
		l.cdf[i] = s
	}
	l.cdf[k-1] = 1 // the sum is 1 up to rounding
	return l, nil
}

// robustSoliton returns μ(d), d = 1 … k (spec §11.7): the ideal soliton
// ρ plus the spike τ, normalised by their sum β, and β.
func robustSoliton(k int, c, delta float64) ([]float64, float64) {
	fk := float64(k)
	r := c * math.Log(fk/delta) * math.Sqrt(fk)
	m := int(math.Floor(fk / r)) // the spike's position k/R
	m = max(1, min(m, k))
	mu := make([]float64, k)
	for d := 1; d <= k; d++ {
		rho := 1 / fk
		if d > 1 {
			rho = 1 / (float64(d) * float64(d-1))
		}
		tau := 0.0
		switch {
		case d < m:
			tau = r / (float64(d) * fk)
		case d == m:
			tau = math.Max(0, r*math.Log(r/delta)/fk)
		}
		mu[d-1] = rho + tau
	}
	beta := 0.0
	for _, x := range mu {
		beta += x
	}
	for i := range mu {
		mu[i] /= beta
	}
	return mu, beta
}

// K returns the number k of source chunks.
func (l *LT) K() int { return l.k }

// Degrees returns the degree law: element d−1 is the probability μ(d)
// that a symbol has d neighbours (a copy).
func (l *LT) Degrees() []float64 { return slices.Clone(l.pmf) }

// Beta returns β = Σ_d (ρ(d) + τ(d)), the normaliser of the robust
// soliton law: kβ symbols decode with probability at least 1 − δ by Luby's
// theorem (spec §11.7).
func (l *LT) Beta() float64 { return l.beta }

// Neighbours draws the source chunks of one encoded symbol from src:
// its degree d by inversion of the law (one Float64), then d distinct
// indices uniformly (a partial Fisher–Yates shuffle), returned sorted.
// It panics if src is nil.
func (l *LT) Neighbours(src rand.Source) []int {
	if src == nil {
		panic("coding: LT.Neighbours: src is nil")
	}
	rng := rand.New(src)
	d := 1 + sortSearch(l.cdf, rng.Float64())
	return sampleDistinct(l.k, d, rng)
}

// sortSearch returns the first i with cdf[i] > u (the last index when
// rounding leaves none).
func sortSearch(cdf []float64, u float64) int {
	i, _ := slices.BinarySearch(cdf, u)
	for i < len(cdf)-1 && cdf[i] <= u {
		i++
	}
	return min(i, len(cdf)-1)
}

// sampleDistinct returns d distinct indices of [0, k), sorted: Floyd's
// algorithm, d draws whatever k.
func sampleDistinct(k, d int, rng *rand.Rand) []int {
	chosen := make(map[int]bool, d)
	out := make([]int, 0, d)
	for j := k - d; j < k; j++ {
		t := rng.IntN(j + 1)
		if chosen[t] {
			t = j
		}
		chosen[t] = true
		out = append(out, t)
	}
	slices.Sort(out)
	return out
}

// LTSymbol is an encoded symbol: the exclusive or of the source chunks
// listed in Neighbours.
type LTSymbol struct {
	Neighbours []int
	Data       []byte
}

// Encode returns a symbol of source (k chunks of one length ≥ 1) with
// neighbours drawn by Neighbours from src. A source of other than k
// chunks, or of chunks of length 0 or of different lengths, is an error
// wrapping loadlab.ErrInvalid. It panics if src is nil.
func (l *LT) Encode(source [][]byte, src rand.Source) (LTSymbol, error) {
	if src == nil {
		panic("coding: LT.Encode: src is nil")
	}
	if len(source) != l.k {
		return LTSymbol{}, loadlab.Invalid(pkg, "LT.Encode: len(source) = %d, want k = %d", len(source), l.k)
	}
	if err := sameLengths("LT.Encode", "source", source, len(source[0])); err != nil {
		return LTSymbol{}, err
	}
	nb := l.Neighbours(src)
	data := slices.Clone(source[nb[0]])
	var ll reedsolomon.LowLevel
	for _, i := range nb[1:] {
		ll.GalMulSliceXor(1, source[i], data)
	}
	return LTSymbol{Neighbours: nb, Data: data}, nil
}

// LTDecoder is the peeling decoder of an LT code: a symbol with one
// unknown neighbour reveals it, and every revealed chunk is removed from
// the symbols that hold it, which may reveal more (spec §11.7).
type LTDecoder struct {
	k, size int
	known   [][]byte // known[i]: source chunk i once revealed
	have    []bool   // have[i]: chunk i is revealed
	nKnown  int
	syms    []ltPending
	waiting [][]int32 // waiting[i]: the pending symbols holding chunk i
	queue   []int
}

// ltPending is a received symbol with unknown neighbours left.
type ltPending struct {
	left int    // unknown neighbours
	xor  int    // exclusive or of their indices: the last one when left = 1
	data []byte // the symbol with the known neighbours removed
}

// NewLTDecoder returns a decoder of k source chunks of chunkSize bytes;
// chunkSize = 0 follows the neighbours only (a reception study). k < 1
// or chunkSize < 0 is an error wrapping loadlab.ErrInvalid; k·chunkSize
// beyond the memory budget, one wrapping loadlab.ErrTooLarge.
func NewLTDecoder(k, chunkSize int) (*LTDecoder, error) {
	if k < 1 || chunkSize < 0 {
		return nil, loadlab.Invalid(pkg, "NewLTDecoder: k, chunkSize = %d, %d, want k ≥ 1 and chunkSize ≥ 0", k, chunkSize)
	}
	if err := size.Check(pkg, "NewLTDecoder: k·(chunkSize + 32)", k, chunkSize+32); err != nil {
		return nil, err
	}
	return &LTDecoder{k: k, size: chunkSize, known: make([][]byte, k), have: make([]bool, k), waiting: make([][]int32, k)}, nil
}

// Recovered returns the number of source chunks revealed so far.
func (d *LTDecoder) Recovered() int { return d.nKnown }

// Done reports whether every source chunk is revealed.
func (d *LTDecoder) Done() bool { return d.nKnown == d.k }

// Add offers a symbol (copied). Neighbours must be distinct indices in
// [0, k) (at least one) and Data chunkSize bytes long, else the error
// wraps loadlab.ErrInvalid.
func (d *LTDecoder) Add(s LTSymbol) error {
	if len(s.Neighbours) == 0 || len(s.Neighbours) > d.k {
		return loadlab.Invalid(pkg, "LTDecoder.Add: %d neighbours, want 1 … k = %d", len(s.Neighbours), d.k)
	}
	if len(s.Data) != d.size {
		return loadlab.Invalid(pkg, "LTDecoder.Add: len(LTSymbol.Data) = %d, want chunkSize = %d", len(s.Data), d.size)
	}
	seen := make(map[int]bool, len(s.Neighbours))
	for _, i := range s.Neighbours {
		if i < 0 || i >= d.k || seen[i] {
			return loadlab.Invalid(pkg, "LTDecoder.Add: neighbour %d out of [0, %d) or repeated", i, d.k)
		}
		seen[i] = true
	}
	p := ltPending{data: slices.Clone(s.Data)}
	var ll reedsolomon.LowLevel
	for _, i := range s.Neighbours {
		if d.have[i] {
			if d.size > 0 {
				ll.GalMulSliceXor(1, d.known[i], p.data)
			}
			continue
		}
		p.left++
		p.xor ^= i
	}
	switch p.left {
	case 0:
		return nil // redundant
	case 1:
		d.reveal(p.xor, p.data)
		return nil
	}
	id := int32(len(d.syms))
	d.syms = append(d.syms, p)
	for _, i := range s.Neighbours {
		if !d.have[i] {
			d.waiting[i] = append(d.waiting[i], id)
		}
	}
	return nil
}

// reveal records chunk i and peels: every pending symbol holding a
// revealed chunk loses it, and one left with a single unknown neighbour
// reveals that one.
func (d *LTDecoder) reveal(i int, data []byte) {
	var ll reedsolomon.LowLevel
	d.known[i], d.have[i], d.nKnown = data, true, d.nKnown+1
	d.queue = append(d.queue[:0], i)
	for len(d.queue) > 0 {
		j := d.queue[len(d.queue)-1]
		d.queue = d.queue[:len(d.queue)-1]
		for _, id := range d.waiting[j] {
			p := &d.syms[id]
			if p.left == 0 {
				continue
			}
			if d.size > 0 {
				ll.GalMulSliceXor(1, d.known[j], p.data)
			}
			p.left--
			p.xor ^= j
			if p.left == 1 && !d.have[p.xor] {
				d.known[p.xor], d.have[p.xor], d.nKnown = p.data, true, d.nKnown+1
				d.queue = append(d.queue, p.xor)
				p.left = 0
			}
		}
		d.waiting[j] = nil
	}
}

// Decode returns the k source chunks (copies). Before every chunk is
// revealed it returns an error wrapping ErrRankDeficient that gives the
// count.
func (d *LTDecoder) Decode() ([][]byte, error) {
	if !d.Done() {
		return nil, loadlab.Wrap(ErrRankDeficient, pkg, "LTDecoder.Decode: %d of k = %d chunks revealed: need more symbols", d.nKnown, d.k)
	}
	out := make([][]byte, d.k)
	for i, c := range d.known {
		out[i] = slices.Clone(c)
	}
	return out, nil
}

// LTSymbolsToDecode draws symbols' neighbours by l.Neighbours from src
// and peels them until every source chunk is revealed, and returns how
// many symbols it took: the per-run function of EstimateLTReception
// (spec §11.7). It draws at most 10k + MaxExtraDraws symbols; a source
// that has not decoded by then is an error wrapping
// loadlab.ErrNotConverged, with the count drawn. It panics if l or src is
// nil.
func LTSymbolsToDecode(l *LT, src rand.Source) (int, error) {
	if l == nil || src == nil {
		panic("coding: LTSymbolsToDecode: nil LT or source")
	}
	d, err := NewLTDecoder(l.k, 0)
	if err != nil {
		return 0, err // k was checked by NewLT
	}
	limit := 10*l.k + MaxExtraDraws
	for n := 1; n <= limit; n++ {
		_ = d.Add(LTSymbol{Neighbours: l.Neighbours(src)}) // valid by construction
		if d.Done() {
			return n, nil
		}
	}
	return limit, loadlab.Wrap(loadlab.ErrNotConverged, pkg, "LTSymbolsToDecode: %d of k = %d chunks revealed after %d symbols: is the source uniform?", d.nKnown, l.k, limit)
}

// LTReception is the measured reception of an LT code.
type LTReception struct {
	K, Runs int
	// Overhead is the mean of N/k − 1, N the symbols a receiver needed,
	// with its 95 % Student-t interval.
	Overhead loadlab.Estimate
	// FailAtBeta is the fraction of runs that needed more than kβ
	// symbols, with its exact (Clopper–Pearson) 95 % interval: at most δ
	// by Luby's theorem (spec §11.7).
	FailAtBeta loadlab.Estimate
	// Needed[r] is the number of symbols run r needed.
	Needed []int
}

// EstimateLTReception measures, over runs receivers, the reception
// overhead of l (spec §11.7). Run r is LTSymbolsToDecode(l,
// loadlab.Stream(seed, r)); the result does not depend on the workers
// (set.Precision is not used here and must be zero). runs < 2 or a bad
// setting is an error wrapping loadlab.ErrInvalid; runs beyond the
// memory budget, one wrapping loadlab.ErrTooLarge. It panics if l is nil.
func EstimateLTReception(l *LT, runs int, seed uint64, set *MonteCarlo) (*LTReception, error) {
	if l == nil {
		panic("coding: EstimateLTReception: l is nil")
	}
	if err := set.Validate(); err != nil {
		return nil, err
	}
	if set == nil {
		set = &MonteCarlo{}
	}
	if runs < 2 || !set.Precision.IsZero() {
		return nil, loadlab.Invalid(pkg, "EstimateLTReception: runs = %d, precision %+v: want runs ≥ 2 and no precision", runs, set.Precision)
	}
	if err := size.Check(pkg, "EstimateLTReception: runs", runs, 32); err != nil {
		return nil, err
	}
	needed, errs := make([]int, runs), make([]error, runs)
	mc.For(runs, set.Workers, func(r int) { needed[r], errs[r] = LTSymbolsToDecode(l, loadlab.Stream(seed, uint64(r))) })
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	over := make([]float64, runs)
	fail := 0
	for r, n := range needed {
		over[r] = float64(n)/float64(l.k) - 1
		if float64(n) > float64(l.k)*l.beta {
			fail++
		}
	}
	return &LTReception{K: l.k, Runs: runs, Overhead: mc.Estimate(over), FailAtBeta: mc.Binomial(fail, runs), Needed: needed}, nil
}
