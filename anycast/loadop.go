package anycast

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/loadlab/loadlab/internal/size"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// opParallelWork is the number of multiply-adds from which LoadOp.Mul is
// split over the cores. It is lower than Loads' threshold because the
// pre-scaled product does a third less memory traffic per entry, and a
// caller that forms a LoadOp multiplies many times, so the goroutine
// start-up (a few µs) is paid against ≥ 30 µs of work.
const opParallelWork = 1 << 15

// LoadOp is the load matrix B = Cᵀ diag(A) of spec §1.3 eqs. (22)–(23),
// formed once for repeated products S = B x: B_ij = C_ji A_j. For sparse C
// it stores the columns of C pre-scaled by A in compressed rows of B
// (nnz values and 32-bit indices), for dense C the dense N×N matrix B.
// Build it with Network.LoadOp; it is immutable and does not follow later
// changes of the network's fields.
//
// Mul(x) equals Network.Loads(x) to rounding: both sum the same products,
// but LoadOp rounds C_ji A_j first, and its dense kernel sums in another
// order: on amd64 with AVX2 and FMA (checked at start-up with CPUID) an
// assembly kernel of this package, fused multiply-adds over blocks of 4
// rows and 8 columns; elsewhere, or built with the tag noasm, gonum's
// Dgemv.
type LoadOp struct {
	n   int
	ptr []int     // sparse: row i of B is idx[ptr[i]:ptr[i+1]], val[...]
	idx []int32   // sparse: columns j of B (rows of C), increasing
	val []float64 // sparse: B_ij = C_ji A_j; dense: B row-major (nil ptr)
}

// LoadOp forms B = Cᵀ diag(A) from the network as it is now: O(nnz) time
// and memory for sparse C, O(N²) for dense C. It returns an error wrapping
// loadlab.ErrTooLarge if B would not fit in the memory budget.
func (nw *Network) LoadOp() (*LoadOp, error) {
	n := nw.N()
	if nw.Sparse == nil {
		if err := size.Check("anycast", "dense load matrix N²", nw.NNZ(), 8); err != nil {
			return nil, err
		}
		b := make([]float64, n*n)
		for j := 0; j < n; j++ {
			a := nw.A[j]
			for i, c := range nw.C.RawRowView(j) {
				b[i*n+j] = c * a
			}
		}
		return &LoadOp{n: n, val: b}, nil
	}
	s := nw.Sparse
	op := &LoadOp{n: n, ptr: s.tptr, idx: make([]int32, len(s.tcol)), val: make([]float64, len(s.tval))}
	for k, j := range s.tcol {
		op.idx[k] = int32(j) // j < N ≤ size budget / 16 < 2³¹
		op.val[k] = s.tval[k] * nw.A[j]
	}
	return op, nil
}

// N returns the number of nodes.
func (op *LoadOp) N() int { return op.n }

// Mul computes S = B x into dst and returns it (dst may be nil; it may not
// alias x). Each S_i is summed by one goroutine in a fixed order, so the
// result does not depend on the number of cores; products of more than
// 2¹⁵ multiply-adds are split over GOMAXPROCS goroutines. Mul does not
// allocate when dst is given (beyond the goroutines of a split product).
//
// Mul panics if len(x) or a non-nil len(dst) differs from N.
func (op *LoadOp) Mul(dst, x []float64) []float64 {
	dst = checkLen("x", dst, x, op.n)
	w := 1
	if len(op.val) >= opParallelWork {
		w = min(runtime.GOMAXPROCS(0), op.n)
	}
	if w <= 1 {
		op.mulRange(dst, x, 0, op.n)
		return dst
	}
	if op.ptr == nil {
		// Dense: pieces of whole blocks of gemvBlock rows, so that the
		// kernel groups the rows as in the serial product.
		claimChunks(op.n, w, denseGrain, func(lo, hi int) { op.mulRange(dst, x, lo, hi) })
		return dst
	}
	chunks(op.n, w, func(lo, hi int) { op.mulRange(dst, x, lo, hi) })
	return dst
}

// gemvBlock is a multiple of the number of rows gonum's assembly
// matrix-vector kernel treats together (4): pieces of a split dense
// product start at multiples of it, so every row is summed the same way
// whatever the number of pieces.
const gemvBlock = 8

// mulRange sets S_i = Σ_j B_ij x_j for i in [lo, hi).
func (op *LoadOp) mulRange(dst, x []float64, lo, hi int) {
	if op.ptr == nil {
		n := op.n
		if hi > lo && !gemvRows(dst[lo:hi], op.val[lo*n:hi*n], x, n) {
			// gonum's native BLAS: SSE2 kernel over blocks of rows,
			// about 2.5× the speed of a dot product per row.
			gonum.Implementation{}.Dgemv(blas.NoTrans, hi-lo, n, 1, op.val[lo*n:hi*n], n, x, 1, 0, dst[lo:hi], 1)
		}
		return
	}
	for i := lo; i < hi; i++ {
		p, q := op.ptr[i], op.ptr[i+1]
		idx, val := op.idx[p:q], op.val[p:q]
		var sum float64
		for k, j := range idx {
			sum += val[k] * x[j]
		}
		dst[i] = sum
	}
}

// denseGrain is the number of rows of a dense product claimed at a time
// by claimChunks: a multiple of gemvBlock (pieces start where the serial
// kernel starts a block), 512 KB of B at N = 1000, ≈ 10 µs of work.
const denseGrain = 8 * gemvBlock

// spinWait bounds how long claimChunks spins for pieces still being
// computed by other goroutines before it blocks.
const spinWait = 200 * time.Microsecond

// claimChunks calls fn(lo, hi) on the pieces [k·grain, (k+1)·grain) ∩
// [0, n), which w goroutines (the caller and w − 1 started here) claim
// one at a time (the caller from the front, the pool's helpers from the
// back). The caller starts at once and does not wait for a helper that
// has not claimed a piece yet: waking an idle core costs tens of µs on a
// virtual machine, as much as the product itself, so with a fixed split
// the caller would wait for the late half. The helpers busy-wait between
// products (helperSpin), so in an ODE's run of products they join within
// a µs. Which goroutine computes a piece does not change its values:
// the result does not depend on the number of cores or on timing. A
// panic in fn is re-raised on the caller (docs/conventions.md §6).
func claimChunks(n, w, grain int, fn func(lo, hi int)) {
	total := int64((n + grain - 1) / grain)
	var (
		span     atomic.Uint64 // unclaimed pieces [lo, hi): lo<<32 | hi
		done     atomic.Int64
		mu       sync.Mutex
		crashed  any
		finished = make(chan struct{})
	)
	span.Store(uint64(total))
	piece := func(k int64) {
		defer func() {
			if v := recover(); v != nil {
				mu.Lock()
				crashed = v
				mu.Unlock()
			}
			if done.Add(1) == total {
				close(finished)
			}
		}()
		lo := int(k) * grain
		fn(lo, min(lo+grain, n))
	}
	work := func(front bool) {
		for {
			k, ok := claim(&span, front)
			if !ok {
				return
			}
			piece(k)
		}
	}
	for range w - 1 {
		helpers.submit(func() { work(false) })
	}
	work(true)
	// The pieces still running elsewhere take at most one grain each:
	// spin briefly (an idle wait would again pay a wake-up), then block.
	for t0 := time.Now(); done.Load() < total && time.Since(t0) < spinWait; {
	}
	<-finished
	mu.Lock()
	defer mu.Unlock()
	if crashed != nil {
		panic(crashed)
	}
}

// claim takes the first (front) or the last unclaimed piece of span
// (lo<<32 | hi). The caller of claimChunks works from the front and the
// helpers from the back, so that while both keep pace each core reads
// the same rows of B from product to product, which stay in its caches.
func claim(span *atomic.Uint64, front bool) (int64, bool) {
	for {
		v := span.Load()
		lo, hi := v>>32, v&(1<<32-1)
		if lo >= hi {
			return 0, false
		}
		k, next := hi-1, lo<<32|(hi-1)
		if front {
			k, next = lo, (lo+1)<<32|hi
		}
		if span.CompareAndSwap(v, next) {
			return int64(k), true
		}
	}
}

// helperSpin is how long a helper goroutine of claimChunks polls for the
// next product before it blocks: an ODE calls LoadOp.Mul every
// 100–200 µs, and a helper that is still polling joins within a µs where
// a blocked one costs a wake-up of tens of µs (the spin-wait of a
// multithreaded BLAS, which likewise shows as CPU time of the idle core).
const helperSpin = 500 * time.Microsecond

// helpers is the package's pool of goroutines that join claimChunks'
// products, started as needed up to GOMAXPROCS − 1 and kept (blocked on
// a channel once idle for helperSpin).
var helpers = &helperPool{jobs: make(chan func(), 64)}

type helperPool struct {
	mu      sync.Mutex
	started int
	jobs    chan func()
}

// submit hands fn to a helper, starting one if fewer than GOMAXPROCS − 1
// run, or to a new goroutine if the queue is full.
func (p *helperPool) submit(fn func()) {
	p.mu.Lock()
	if p.started < runtime.GOMAXPROCS(0)-1 {
		p.started++
		go p.loop()
	}
	p.mu.Unlock()
	select {
	case p.jobs <- fn:
	default:
		go fn()
	}
}

// loop runs jobs, polling for helperSpin after each before it blocks.
func (p *helperPool) loop() {
	for {
		fn, ok := p.poll()
		if !ok {
			fn = <-p.jobs
		}
		fn()
	}
}

// poll waits up to helperSpin for a job without blocking.
func (p *helperPool) poll() (func(), bool) {
	for t0 := time.Now(); time.Since(t0) < helperSpin; {
		select {
		case fn := <-p.jobs:
			return fn, true
		default: // busy-wait: runtime.Gosched would lose the core for tens of µs
		}
	}
	return nil, false
}
