package spectral

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/lanczos"
	"github.com/loadlab/loadlab/wgraph"
)

// Bracket is an interval [Lo, Hi] certified to contain an eigenvalue,
// with Est the best estimate found inside it. Cert says how: from
// theorems (Rayleigh quotients, norm bounds, Cauchy interlacing,
// Sylvester's law of inertia) applied to computed quantities, each
// widened by a bound on its rounding error, and, for CertLanczos with
// Delta > 0, one end from a probabilistic bound that fails with
// probability at most Delta over the random start vector (derived in
// spec throttlers.md §12.8).
type Bracket struct {
	Lo, Est, Hi float64
	// Cert names the method that produced the bracket.
	Cert Certificate
	// Delta bounds the probability that [Lo, Hi] misses the eigenvalue:
	// 0 for a deterministic bracket, the setting EigenSettings.Delta when
	// one end is the Lanczos probabilistic bound.
	Delta float64
	// Steps counts the Lanczos steps of the first pass (operator
	// applications for λ_max, Laplacian solves for λ₂); 0 without Lanczos.
	Steps int
	// Status is Success when the requested width was met or the
	// threshold decided, IterationLimit when EigenSettings.MaxSteps ran
	// out first.
	Status loadlab.Status
}

// Contains reports whether x lies in [Lo, Hi].
func (b Bracket) Contains(x float64) bool { return b.Lo <= x && x <= b.Hi }

// Width returns Hi − Lo.
func (b Bracket) Width() float64 { return b.Hi - b.Lo }

// String formats the bracket as "[Lo, Hi] (≈ Est)".
func (b Bracket) String() string {
	return fmt.Sprintf("[%.10g, %.10g] (≈ %.10g)", b.Lo, b.Hi, b.Est)
}

// Certificate names the method behind a Bracket.
type Certificate int

const (
	// CertNone is the zero value: no bracket was computed.
	CertNone Certificate = iota
	// CertBounds: deterministic bounds in O(n + m) — Rayleigh quotients,
	// the edge bound, the Collatz–Wielandt bound, or exact structure (a
	// disconnected graph has λ₂ = 0).
	CertBounds
	// CertDense: the dense symmetric eigensolver (up to 400 nodes), with
	// its backward error bound; deterministic.
	CertDense
	// CertCholesky: a dense Cholesky test of a shifted matrix (Sylvester's
	// law of inertia, up to 3000 nodes) decided the threshold;
	// deterministic unless Delta > 0 (the other end is still Lanczos').
	CertCholesky
	// CertLanczos: plain Lanczos from a random start; the end on the
	// Rayleigh-quotient side is deterministic, the other is the
	// probabilistic Christoffel bound when Delta > 0.
	CertLanczos
)

var certNames = [...]string{"none", "bounds", "dense", "Cholesky", "Lanczos"}

// String returns the certificate's name.
func (c Certificate) String() string {
	if c < 0 || int(c) >= len(certNames) {
		return fmt.Sprintf("Certificate(%d)", int(c))
	}
	return certNames[c]
}

// EigenSettings tune LambdaMaxBracket and Lambda2Bracket; nil means the
// defaults, and so does a zero field.
type EigenSettings struct {
	// Scale holds q_u > 0 for every node: the operator is then
	// S = Q^{1/2} L Q^{1/2}, Q = diag(q), which has the spectrum of L Q
	// (the linearised throttler of consensus, spec throttlers.md §8). Nil
	// means q = 1, S = L.
	Scale []float64
	// Threshold, when positive, is the value the caller must compare the
	// eigenvalue with: refinement stops as soon as the bracket lies
	// wholly above or below it (and continues past RelWidth until it
	// does, up to MaxSteps), and up to 3000 nodes an undecided threshold
	// is settled by Cholesky. Zero means refine to RelWidth.
	Threshold float64
	// RelWidth is the requested relative width (Hi − Lo)/Lo of a
	// Lanczos bracket (above 400 nodes). Zero means 1e-3.
	RelWidth float64
	// Delta is the failure probability allowed to the probabilistic end
	// of a Lanczos bracket, in (0, 1). Zero means 1e-10.
	Delta float64
	// MaxSteps caps the Lanczos steps (each an operator application for
	// λ_max, a Laplacian solve for λ₂). Zero means 2000.
	MaxSteps int
	// Src draws the Lanczos start vector (two Uint64 values seed it) and
	// the Laplacian solver's preconditioner. Nil means the fixed stream
	// rand.NewPCG(1, 2), so that the default result is reproducible.
	Src rand.Source
}

// Sizes and defaults of the eigenvalue methods.
const (
	denseEigenMax   = 400  // dense eigenvalues up to this order
	denseCholMax    = 3000 // dense Cholesky decisions up to this order
	perronIters     = 30   // power steps for the Collatz–Wielandt bound
	defaultRelWidth = 1e-3
	defaultDelta    = 1e-10
	defaultMaxSteps = 2000
	// eigenWorkspace bounds the n-vectors of a bracket: the operator, the
	// Lanczos vectors with the second pass, and four more (Collatz–Wielandt
	// or the null vector, a solve buffer, S⁺y, slack); the solver of the λ₂
	// bracket checks its own.
	eigenWorkspace = opVectors + lanczos.Vectors + 4
)

// Validate checks the settings against a graph of n nodes: Scale nil or
// of length n with finite positive entries, Threshold and RelWidth
// finite and ≥ 0, Delta in [0, 1), MaxSteps ≥ 0.
func (s *EigenSettings) Validate(n int) error {
	if s == nil {
		return nil
	}
	if s.Scale != nil && len(s.Scale) != n {
		return loadlab.Invalid("spectral", "EigenSettings.Scale has length %d, want %d", len(s.Scale), n)
	}
	for i, q := range s.Scale {
		if !(q > 0) || math.IsInf(q, 1) {
			return loadlab.Invalid("spectral", "EigenSettings.Scale[%d] = %v, want finite and > 0", i, q)
		}
	}
	if !(s.Threshold >= 0) || math.IsInf(s.Threshold, 1) {
		return loadlab.Invalid("spectral", "EigenSettings.Threshold = %v, want finite and ≥ 0", s.Threshold)
	}
	if !(s.RelWidth >= 0) || math.IsInf(s.RelWidth, 1) {
		return loadlab.Invalid("spectral", "EigenSettings.RelWidth = %v, want finite and ≥ 0", s.RelWidth)
	}
	if !(s.Delta >= 0 && s.Delta < 1) {
		return loadlab.Invalid("spectral", "EigenSettings.Delta = %v, want in [0, 1)", s.Delta)
	}
	if s.MaxSteps < 0 {
		return loadlab.Invalid("spectral", "EigenSettings.MaxSteps = %d, want ≥ 0", s.MaxSteps)
	}
	return nil
}

// eigenConfig is EigenSettings with the defaults filled in.
type eigenConfig struct {
	q               []float64
	t, width, delta float64
	maxSteps        int
	seed            [2]uint64
}

func (s *EigenSettings) resolved() eigenConfig {
	c := eigenConfig{width: defaultRelWidth, delta: defaultDelta, maxSteps: defaultMaxSteps, seed: [2]uint64{1, 2}}
	if s == nil {
		return c
	}
	c.q, c.t = s.Scale, s.Threshold
	if s.RelWidth > 0 {
		c.width = s.RelWidth
	}
	if s.Delta > 0 {
		c.delta = s.Delta
	}
	if s.MaxSteps > 0 {
		c.maxSteps = s.MaxSteps
	}
	if s.Src != nil {
		r := rand.New(s.Src)
		c.seed = [2]uint64{r.Uint64(), r.Uint64()}
	}
	return c
}

// decided reports whether a threshold t > 0 lies outside b.
func decided(b Bracket, t float64) bool {
	return t > 0 && (b.Hi < t || b.Lo >= t)
}

// LambdaMaxBracket returns a certified bracket of the largest eigenvalue
// of the Laplacian of g (or of S = Q^{1/2} L Q^{1/2}, see
// EigenSettings.Scale). It starts from cheap bounds and refines only
// while they leave the question open (with a Threshold t, while t lies
// inside the bracket; without, until the relative width is RelWidth):
//
//  1. Bounds in O(m): Lo = max_u S_uu (a Rayleigh quotient) and the edge
//     bound Hi = max_{u~v} (S_uu + S_vv) (CertBounds).
//  2. Up to 400 nodes: dense eigenvalues, λ ± 1e-12 Hi (CertDense).
//  3. Collatz–Wielandt: Hi = min(Hi, max_i (|S|x)_i/x_i) after power
//     steps on |S|; sharp on bipartite graphs (CertBounds).
//  4. Plain Lanczos from a random start, O(n) memory: Hi is the
//     Christoffel bound, which fails with probability ≤ Delta, and Lo the
//     Rayleigh quotient of the Ritz vector (regenerated in a second pass),
//     rounded down (CertLanczos; proof in spec throttlers.md §12.8).
//  5. With a Threshold t still inside the bracket and up to 3000 nodes:
//     a Cholesky factorisation of c I − S succeeds iff c > λ_max, up to a
//     backward error m = 1e-9 (t + Hi) (CertCholesky).
//
// It returns an error wrapping loadlab.ErrInvalid for bad settings,
// loadlab.ErrTooLarge when the workspace (14 n-vectors; n² for the dense
// steps) does not fit, and loadlab.ErrNotConverged, with the bracket
// reached and Status IterationLimit, when MaxSteps run out before the
// width or the decision. It panics if g is nil.
func LambdaMaxBracket(g *wgraph.Graph, s *EigenSettings) (Bracket, error) {
	if g == nil {
		panic("spectral: LambdaMaxBracket: g is nil")
	}
	n := g.Order()
	if err := s.Validate(n); err != nil {
		return Bracket{}, err
	}
	if err := checkVectors("LambdaMaxBracket", n, eigenWorkspace); err != nil {
		return Bracket{}, err
	}
	c := s.resolved()
	op := newOperator(g, c.q)
	lo, hi := op.edgeBounds()
	b := Bracket{Lo: lo, Est: hi, Hi: hi, Cert: CertBounds, Status: loadlab.Success}
	if n <= 1 || hi == 0 || decided(b, c.t) {
		return b, nil
	}
	if n <= denseEigenMax {
		ev, err := op.denseValues("LambdaMaxBracket")
		if err != nil {
			return Bracket{}, err
		}
		return denseBracket(ev, n-1, hi), nil
	}
	b.Hi = min(b.Hi, op.perronBound(c.t, perronIters))
	b.Est = b.Hi
	if decided(b, c.t) || (c.t == 0 && b.Hi-b.Lo <= c.width*b.Lo) {
		return b, nil
	}
	b, err := op.lanczosMax(b, c)
	if err != nil {
		return b, err
	}
	if c.t > 0 && !decided(b, c.t) && n <= denseCholMax {
		if b, err = op.choleskyMax(b, c.t); err != nil {
			return b, err
		}
	}
	return b, b.converged("LambdaMaxBracket")
}

// converged returns an error wrapping loadlab.ErrNotConverged unless the
// status is Success.
func (b Bracket) converged(fn string) error {
	if b.Status == loadlab.Success {
		return nil
	}
	return loadlab.Wrap(loadlab.ErrNotConverged, "spectral", "%s: bracket %v after %d Lanczos steps (%v): EigenSettings.MaxSteps ran out before the requested width or the threshold's decision", fn, b, b.Steps, b.Status)
}

// Lambda2Bracket returns a certified bracket of the second smallest
// eigenvalue of the Laplacian of g (of S = Q^{1/2} L Q^{1/2} with
// EigenSettings.Scale, whose null vector is Q^{−1/2}1): the algebraic
// connectivity. A disconnected graph (or one node) gives [0, 0]
// (CertBounds).
//
//  1. Up to 400 nodes: dense eigenvalues, λ₂ ± 1e-12 ‖S‖, clamped at 0
//     (CertDense).
//  2. Above: plain Lanczos on the complement of the null vector
//     (CertLanczos). First on h I − S, h ≥ λ_max the edge or
//     Collatz–Wielandt bound, whose largest eigenvalue there is h − λ₂:
//     the Christoffel bound on it gives Lo (probability ≤ Delta of
//     failing) and the Rayleigh quotient of S at the Ritz vector gives
//     Hi. Its steps grow like √(h/λ₂), so once h/λ₂ looks larger than 30
//     (after 24 steps or later) it switches to Lanczos on S⁺, each step
//     a Laplacian solve (laplacian.Solver, relative residual 1e-10): 1/λ₂
//     is the largest eigenvalue of S⁺ there, its Christoffel bound (widened
//     by the solves' residuals) gives Lo, and the Rayleigh quotient of S
//     at S⁺ applied to the Ritz vector gives Hi.
//  3. With a Threshold t still inside the bracket and up to 3000 nodes:
//     S + zzᵀ − c(I − zzᵀ) (z the unit null vector) is positive definite
//     iff λ₂ > c, tested by Cholesky (CertCholesky).
//
// Errors and panics are those of LambdaMaxBracket, and those of
// laplacian.NewSolver and laplacian.Solver.Solve (a solve that does not
// converge).
func Lambda2Bracket(g *wgraph.Graph, s *EigenSettings) (Bracket, error) {
	if g == nil {
		panic("spectral: Lambda2Bracket: g is nil")
	}
	b, _, err := lambda2(g, s)
	return b, err
}

// lambda2 is Lambda2Bracket, also returning the Lanczos estimate of an
// eigenvector for λ₂ of S (the vector behind Hi; nil when no Lanczos
// bracket ran).
func lambda2(g *wgraph.Graph, s *EigenSettings) (Bracket, []float64, error) {
	n := g.Order()
	if err := s.Validate(n); err != nil {
		return Bracket{}, nil, err
	}
	if n <= 1 || !wgraph.IsConnected(g) {
		return Bracket{Cert: CertBounds, Status: loadlab.Success}, nil, nil
	}
	if err := checkVectors("Lambda2Bracket", n, eigenWorkspace); err != nil {
		return Bracket{}, nil, err
	}
	c := s.resolved()
	op := newOperator(g, c.q)
	_, norm := op.edgeBounds()
	if n <= denseEigenMax {
		ev, err := op.denseValues("Lambda2Bracket")
		if err != nil {
			return Bracket{}, nil, err
		}
		return denseBracket(ev, 1, norm), nil, nil
	}
	z := op.nullVector()
	h := min(norm, op.perronBound(0, perronIters))
	b, vec, ok, err := op.lanczos2Direct(z, h, c)
	if err != nil {
		return b, nil, err
	}
	if !ok {
		if b, vec, err = op.lanczos2(z, c); err != nil {
			return b, nil, err
		}
	}
	if c.t > 0 && !decided(b, c.t) && n <= denseCholMax {
		if b, err = op.cholesky2(b, z, c.t, norm); err != nil {
			return b, nil, err
		}
	}
	return b, vec, b.converged("Lambda2Bracket")
}

// boundsWidth is a relative width that every bracket meets, so that
// LambdaMaxBracket stops after its deterministic steps.
const boundsWidth = 1e300

// LambdaMaxBounds returns the deterministic bracket of λ_max(L): steps 1
// and 3 of LambdaMaxBracket (edge and Collatz–Wielandt bounds, O(m)
// each, CertBounds), or the dense eigenvalues up to 400 nodes
// (CertDense). Errors and panics are those of LambdaMaxBracket.
func LambdaMaxBounds(g *wgraph.Graph) (Bracket, error) {
	return LambdaMaxBracket(g, &EigenSettings{RelWidth: boundsWidth})
}
