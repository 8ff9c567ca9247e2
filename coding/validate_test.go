package coding

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/badarg"
)

var (
	inv      = loadlab.ErrInvalid
	tooLarge = loadlab.ErrTooLarge
)

// codecCases probes the encoder, the decoder, Rank and the MDS wrapper.
func codecCases() []badarg.Case {
	var cs []badarg.Case
	add := func(c ...badarg.Case) { cs = append(cs, c...) }
	src := rand.NewPCG(1, 2)
	p := badarg.Probe{Func: "NewEncoder", Err: inv}
	newEnc := func(s [][]byte) func() error { return func() error { _, err := NewEncoder(s); return err } }
	add(
		p.Fails("no source", "ℓ = len(source) = 0", newEnc(nil)),
		p.Fails("empty chunk", "len(source[0]) = 0", newEnc([][]byte{{}, {}})),
		p.Fails("lengths differ", "len(source[1]) = 1, want 2", newEnc([][]byte{{1, 2}, {3}})),
	)
	enc, _ := NewEncoder([][]byte{{1, 2}, {3, 4}})
	p = badarg.Probe{Func: "Encoder.Encode", Err: inv}
	add(p.Fails("short coefficients", "len(coeffs) = 1, want ℓ = 2", func() error { _, err := enc.Encode([]byte{1}); return err }))
	p = badarg.Probe{Func: "Encoder.Random", Err: inv}
	add(p.Int("k", badarg.NonNegative, func(k int) error { _, err := enc.Random(k, src); return err })...)
	add(badarg.Probe{Func: "Encoder.Random", Err: tooLarge}.Fails("k = 2^40", "Encoder.Random: k", func() error { _, err := enc.Random(1<<40, src); return err }))
	add(badarg.Probe{Func: "Encoder.Random", Panic: true}.Panics("src = nil", "src is nil", func() { _, _ = enc.Random(1, nil) }))

	p = badarg.Probe{Func: "NewDecoder", Err: inv}
	p.Text = "ℓ, chunkSize = %v, 4"
	add(p.Int("ell", badarg.Positive, func(l int) error { _, err := NewDecoder(l, 4); return err })...)
	p.Text = "ℓ, chunkSize = 2, %v"
	add(p.Int("chunkSize", badarg.Positive, func(s int) error { _, err := NewDecoder(2, s); return err })...)
	add(
		badarg.Probe{Func: "NewDecoder", Err: tooLarge}.Fails("ℓ·chunkSize = 2^50", "ℓ·chunkSize", func() error { _, err := NewDecoder(1<<20, 1<<30); return err }),
		badarg.Probe{Func: "NewDecoder", Err: tooLarge}.Fails("ℓ·ℓ = 2^60", "ℓ·ℓ", func() error { _, err := NewDecoder(1<<30, 1); return err }),
	)
	dec, _ := NewDecoder(2, 2)
	p = badarg.Probe{Func: "Decoder.Add", Err: inv}
	add(
		p.Fails("coefficients short", "len(Chunk.Coeffs) = 1, want ℓ = 2", func() error { _, err := dec.Add(Chunk{Coeffs: []byte{1}, Data: []byte{1, 2}}); return err }),
		p.Fails("data long", "len(Chunk.Data) = 3, want chunkSize = 2", func() error { _, err := dec.Add(Chunk{Coeffs: []byte{1, 0}, Data: []byte{1, 2, 3}}); return err }),
	)
	add(badarg.Probe{Func: "Decoder.Decode", Err: ErrRankDeficient}.Fails("rank 0", "rank 0 < ℓ = 2", func() error { _, err := dec.Decode(); return err }))
	p = badarg.Probe{Func: "Decoder.DecodeTo", Err: ErrRankDeficient}
	add(p.Fails("rank 0", "rank 0 < ℓ = 2", func() error { return dec.DecodeTo([][]byte{{0, 0}, {0, 0}}) }))
	p = badarg.Probe{Func: "Decoder.DecodeTo", Panic: true}
	add(
		p.Panics("len(dst) = 1", "len(dst) ≠ ℓ", func() { _ = dec.DecodeTo([][]byte{{0, 0}}) }),
		p.Panics("dst[1] short", "not chunkSize long", func() { _ = dec.DecodeTo([][]byte{{0, 0}, {0}}) }),
	)
	add(badarg.Probe{Func: "Rank", Err: inv}.Fails("ragged", "len(rows[1]) = 1, want 2", func() error { _, err := Rank([][]byte{{1, 2}, {3}}); return err }))

	p = badarg.Probe{Func: "NewMDS", Err: inv}
	for _, c := range [][2]int{{0, 3}, {-1, 3}, {4, 3}, {3, 257}} {
		label := fmt.Sprintf("ℓ, n = %d, %d", c[0], c[1])
		add(p.Fails(label, label, func() error { _, err := NewMDS(c[0], c[1]); return err }))
	}
	m, _ := NewMDS(2, 4)
	p = badarg.Probe{Func: "MDS.Encode", Err: inv}
	add(
		p.Fails("one chunk", "len(source) = 1, want ℓ = 2", func() error { _, err := m.Encode([][]byte{{1}}); return err }),
		p.Fails("lengths differ", "len(source[1]) = 1, want 2", func() error { _, err := m.Encode([][]byte{{1, 2}, {3}}); return err }),
		p.Fails("empty chunks", "len(source[0]) = 0", func() error { _, err := m.Encode([][]byte{{}, {}}); return err }),
	)
	p = badarg.Probe{Func: "MDS.Decode", Err: inv}
	add(
		p.Fails("three chunks", "len(chunks) = 3, want n = 4", func() error { _, err := m.Decode(make([][]byte, 3)); return err }),
		p.Fails("lengths differ", "len(chunks[2]) = 1, want 2", func() error { _, err := m.Decode([][]byte{{1, 2}, nil, {3}, nil}); return err }),
	)
	add(badarg.Probe{Func: "MDS.Decode", Err: ErrRankDeficient}.Fails("one chunk present", "1 chunks present, want at least ℓ = 2", func() error {
		_, err := m.Decode([][]byte{nil, {1, 2}, nil, nil})
		return err
	}))
	return cs
}

// probCases probes the formulas and the Monte Carlo study.
func probCases() []badarg.Case {
	var cs []badarg.Case
	add := func(c ...badarg.Case) { cs = append(cs, c...) }
	p := badarg.Probe{Func: "DecodeProb", Err: inv}
	for _, q := range []float64{math.NaN(), math.Inf(-1), -1, 0, 1, 1.5} {
		label := fmt.Sprintf("q = %v", q)
		add(p.Fails(label, label, func() error { _, err := DecodeProb(q, 3, 0); return err }))
	}
	add(p.Int("ℓ", badarg.NonNegative, func(l int) error { _, err := DecodeProb(2, l, 0); return err })...)
	add(p.Int("δ", badarg.NonNegative, func(d int) error { _, err := DecodeProb(2, 3, d); return err })...)
	p = badarg.Probe{Func: "FailProb", Err: inv}
	for _, q := range []float64{math.NaN(), 1} {
		label := fmt.Sprintf("q = %v", q)
		add(p.Fails(label, label, func() error { _, err := FailProb(q, 3, 0); return err }))
	}
	add(p.Int("ℓ", badarg.NonNegative, func(l int) error { _, err := FailProb(2, l, 0); return err })...)
	add(p.Int("δ", badarg.NonNegative, func(d int) error { _, err := FailProb(2, 3, d); return err })...)
	p = badarg.Probe{Func: "ExpectedExtra", Err: inv}
	for _, q := range []float64{math.NaN(), 1} {
		label := fmt.Sprintf("q = %v", q)
		add(p.Fails(label, label, func() error { _, _, err := ExpectedExtra(q, 3); return err }))
	}
	add(p.Int("ℓ", badarg.NonNegative, func(l int) error { _, _, err := ExpectedExtra(2, l); return err })...)

	p = badarg.Probe{Func: "EstimateReception", Err: inv}
	est := func(q, ell, extra, runs int, set *MonteCarlo) func() error {
		return func() error { _, err := EstimateReception(q, ell, extra, runs, 1, set); return err }
	}
	add(
		p.Fails("q = 8", "q, ℓ, maxExtra, runs = 8, 3, 1, 10", est(8, 3, 1, 10, nil)),
		p.Fails("q = 0", "q, ℓ, maxExtra, runs = 0, 3, 1, 10", est(0, 3, 1, 10, nil)),
		p.Fails("ℓ = 0", "q, ℓ, maxExtra, runs = 2, 0, 1, 10", est(2, 0, 1, 10, nil)),
		p.Fails("maxExtra = -1", "q, ℓ, maxExtra, runs = 2, 3, -1, 10", est(2, 3, -1, 10, nil)),
		p.Fails("runs = 1", "q, ℓ, maxExtra, runs = 2, 3, 1, 1", est(2, 3, 1, 1, nil)),
		p.Fails("Workers = -1", "MonteCarlo.Workers = -1", est(2, 3, 1, 10, &MonteCarlo{Workers: -1})),
		p.Fails("Precision.Rel = -1", "Precision.Rel = -1", est(2, 3, 1, 10, &MonteCarlo{Precision: loadlab.Precision{Rel: -1}})),
		p.Fails("pilot above the cap", "runs = 100 (the pilot) above Precision.MaxRuns = 50", est(2, 3, 1, 100, &MonteCarlo{Precision: loadlab.Precision{Rel: 0.1, MaxRuns: 50}})),
		badarg.Probe{Func: "EstimateReception", Err: tooLarge}.Fails("runs = 2^62", "runs", est(2, 3, 1, 1<<62, nil)),
		badarg.Probe{Func: "EstimateReception", Err: tooLarge}.Fails("ℓ = 10^5", "ℓ = 100000, want ≤ MaxStudyEll", est(2, 100000, 1, 10, nil)),
		badarg.Probe{Func: "EstimateReception", Err: tooLarge}.Fails("maxExtra = 2^62", "maxExtra", est(2, 3, 1<<62, 10, nil)),
	)
	add(badarg.Fields(badarg.Probe{Func: "MonteCarlo.Validate", Err: inv}, MonteCarlo{}, badarg.NonNegative, func(s *MonteCarlo) error { return s.Validate() }, "Workers")...)

	p = badarg.Probe{Func: "ChunksToDecode", Err: inv}
	src := rand.NewPCG(1, 2)
	add(
		p.Fails("q = 3", "q, ℓ = 3, 2", func() error { _, err := ChunksToDecode(3, 2, src); return err }),
		p.Fails("ℓ = 0", "q, ℓ = 2, 0", func() error { _, err := ChunksToDecode(2, 0, src); return err }),
		badarg.Probe{Func: "ChunksToDecode", Err: tooLarge}.Fails("ℓ = 2^40", "ℓ = 1099511627776, want ≤ MaxStudyEll", func() error { _, err := ChunksToDecode(2, 1<<40, src); return err }),
		badarg.Probe{Func: "ChunksToDecode", Err: tooLarge}.Fails("ℓ = MaxStudyEll + 1", "ℓ = 4097", func() error { _, err := ChunksToDecode(2, MaxStudyEll+1, src); return err }),
	)
	add(badarg.Probe{Func: "ChunksToDecode", Panic: true}.Panics("src = nil", "src is nil", func() { _, _ = ChunksToDecode(2, 2, nil) }))

	add(badarg.Probe{Func: "DrawCoeffs", Err: inv}.Fails("q = 8", "q = 8", func() error { return DrawCoeffs(8, make([]byte, 3), src) }))
	add(badarg.Probe{Func: "DrawCoeffs", Panic: true}.Panics("src = nil", "src is nil", func() { _ = DrawCoeffs(2, make([]byte, 3), nil) }))
	p = badarg.Probe{Func: "NewSpan", Err: inv}
	add(p.Int("ℓ", badarg.Positive, func(l int) error { _, err := NewSpan(l); return err })...)
	add(badarg.Probe{Func: "NewSpan", Err: tooLarge}.Fails("ℓ = 2^40", "ℓ·ℓ", func() error { _, err := NewSpan(1 << 40); return err }))
	sp, _ := NewSpan(3)
	add(badarg.Probe{Func: "Span.Add", Err: inv}.Fails("len(v) = 2", "len(v) = 2, want ℓ = 3", func() error { _, err := sp.Add([]byte{1, 2}); return err }))
	p = badarg.Probe{Func: "Inv", Panic: true}
	add(p.Panics("a = 0", "Inv(0)", func() { Inv(0) }))
	add(badarg.Probe{Func: "Div", Panic: true}.Panics("b = 0", "division by zero", func() { Div(1, 0) }))
	add(badarg.Probe{Func: "Log", Panic: true}.Panics("a = 0", "Log(0)", func() { Log(0) }))
	return cs
}

// ltCases probes the LT code.
func ltCases() []badarg.Case {
	var cs []badarg.Case
	add := func(c ...badarg.Case) { cs = append(cs, c...) }
	src := rand.NewPCG(3, 4)
	p := badarg.Probe{Func: "NewLT", Err: inv}
	add(p.Int("k", badarg.Positive, func(k int) error { _, err := NewLT(k, 0.1, 0.5); return err })...)
	add(p.Fails("k = MaxLTChunks + 1", "k = 1048577", func() error { _, err := NewLT(MaxLTChunks+1, 0.1, 0.5); return err }))
	add(p.Scalar("c", badarg.Positive, func(c float64) error { _, err := NewLT(5, c, 0.5); return err })...)
	p.Text = "δ = %v"
	add(p.Scalar("δ", badarg.Unit, func(d float64) error { _, err := NewLT(5, 0.1, d); return err })...)
	for _, d := range []float64{0, 1} {
		add(p.Fails(fmt.Sprintf("δ = %v", d), fmt.Sprintf("δ = %v", d), func() error { _, err := NewLT(5, 0.1, d); return err }))
	}
	l, _ := NewLT(3, 0.1, 0.5)
	p = badarg.Probe{Func: "LT.Encode", Err: inv}
	add(
		p.Fails("two chunks", "len(source) = 2, want k = 3", func() error { _, err := l.Encode([][]byte{{1}, {2}}, src); return err }),
		p.Fails("lengths differ", "len(source[2]) = 2, want 1", func() error { _, err := l.Encode([][]byte{{1}, {2}, {3, 4}}, src); return err }),
	)
	add(badarg.Probe{Func: "LT.Encode", Panic: true}.Panics("src = nil", "src is nil", func() { _, _ = l.Encode([][]byte{{1}, {2}, {3}}, nil) }))
	add(badarg.Probe{Func: "LT.Neighbours", Panic: true}.Panics("src = nil", "src is nil", func() { l.Neighbours(nil) }))
	p = badarg.Probe{Func: "NewLTDecoder", Err: inv}
	add(
		p.Fails("k = 0", "k, chunkSize = 0, 4", func() error { _, err := NewLTDecoder(0, 4); return err }),
		p.Fails("chunkSize = -1", "k, chunkSize = 3, -1", func() error { _, err := NewLTDecoder(3, -1); return err }),
		badarg.Probe{Func: "NewLTDecoder", Err: tooLarge}.Fails("k·chunkSize = 2^60", "NewLTDecoder", func() error { _, err := NewLTDecoder(1<<30, 1<<30); return err }),
	)
	d, _ := NewLTDecoder(3, 2)
	p = badarg.Probe{Func: "LTDecoder.Add", Err: inv}
	add(
		p.Fails("no neighbours", "0 neighbours", func() error { return d.Add(LTSymbol{Data: []byte{1, 2}}) }),
		p.Fails("neighbour 3", "neighbour 3 out of [0, 3)", func() error { return d.Add(LTSymbol{Neighbours: []int{3}, Data: []byte{1, 2}}) }),
		p.Fails("neighbour repeated", "neighbour 1 out of [0, 3) or repeated", func() error { return d.Add(LTSymbol{Neighbours: []int{1, 1}, Data: []byte{1, 2}}) }),
		p.Fails("data short", "len(LTSymbol.Data) = 1, want chunkSize = 2", func() error { return d.Add(LTSymbol{Neighbours: []int{0}, Data: []byte{1}}) }),
	)
	add(badarg.Probe{Func: "LTDecoder.Decode", Err: ErrRankDeficient}.Fails("nothing revealed", "0 of k = 3 chunks revealed", func() error { _, err := d.Decode(); return err }))
	add(badarg.Probe{Func: "LTSymbolsToDecode", Panic: true}.Panics("src = nil", "nil LT or source", func() { _, _ = LTSymbolsToDecode(l, nil) }))
	add(badarg.Probe{Func: "LTSymbolsToDecode", Panic: true}.Panics("l = nil", "nil LT or source", func() { _, _ = LTSymbolsToDecode(nil, src) }))
	p = badarg.Probe{Func: "EstimateLTReception", Err: inv}
	add(
		p.Fails("runs = 1", "runs = 1", func() error { _, err := EstimateLTReception(l, 1, 1, nil); return err }),
		p.Fails("a precision", "want runs ≥ 2 and no precision", func() error {
			_, err := EstimateLTReception(l, 10, 1, &MonteCarlo{Precision: loadlab.Precision{Rel: 0.1}})
			return err
		}),
		p.Fails("Workers = -1", "MonteCarlo.Workers = -1", func() error { _, err := EstimateLTReception(l, 10, 1, &MonteCarlo{Workers: -1}); return err }),
		badarg.Probe{Func: "EstimateLTReception", Err: tooLarge}.Fails("runs = 2^62", "runs", func() error { _, err := EstimateLTReception(l, 1<<62, 1, nil); return err }),
	)
	add(badarg.Probe{Func: "EstimateLTReception", Panic: true}.Panics("l = nil", "l is nil", func() { _, _ = EstimateLTReception(nil, 10, 1, nil) }))
	return cs
}

func TestValidation(t *testing.T) {
	cs := append(append(codecCases(), probCases()...), ltCases()...)
	badarg.Run(t, cs)
	badarg.Coverage(t, ".", cs, map[string]string{
		"Add": "every pair of bytes is a pair of field elements",
		"Mul": "every pair of bytes is a pair of field elements",
		"Exp": "every integer is an exponent (taken modulo 255)",
	})
}
