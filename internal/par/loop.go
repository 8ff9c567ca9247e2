// The pool of helpers and the loop over pieces that every parallel loop
// of the package runs on.

package par

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Loop calls fn(lo, hi) once for each piece [k·grain, (k+1)·grain) ∩
// [0, n), on the calling goroutine and up to Workers(workers) − 1
// helpers of the pool, and returns when every piece has finished. The
// caller claims pieces from the front, the helpers from the back, in
// runs of about 1/(4w) of the pieces still unclaimed (at most maxRun),
// so the goroutines finish within about one piece of each other and a
// core taken by other work leaves its share to the others. The caller
// starts at once and never waits for a helper that has not claimed a
// piece yet (a parked helper takes tens of µs to wake on a virtual
// machine, as long as a whole short loop), so with busy or parked
// helpers it runs the pieces alone.
//
// A panic in fn stops the claiming of new pieces; once the pieces
// already claimed have finished it is re-raised on the caller as a
// *PanicError whose Index is the lo of the panicking call (with one
// worker or one piece the loop runs on the caller in order and the panic
// propagates unchanged). Loop does not allocate once the pool has
// warmed up (beyond what fn's closure costs its caller).
//
// Loop panics if grain < 1.
func Loop(n, workers, grain int, fn func(lo, hi int)) {
	if grain < 1 {
		panic("par: Loop: grain < 1")
	}
	if n <= 0 {
		return
	}
	total := (n + grain - 1) / grain
	w := min(Workers(workers), total)
	if w <= 1 {
		for lo := 0; lo < n; lo += grain {
			fn(lo, min(lo+grain, n))
		}
		return
	}
	l := newLoop(n, grain, total, w, fn)
	pool.submit(l, w-1)
	l.work(true)
	l.wait()
	err := l.crashed.take()
	l.release()
	if err != nil {
		panic(err)
	}
}

// maxRun bounds the pieces of a claim: a goroutine descheduled by the OS
// in the middle of a run holds the others up by at most that much work.
const maxRun = 4

// waitSpin bounds how long the caller spins for pieces still being
// computed by helpers before it blocks.
const waitSpin = 200 * time.Microsecond

// helperSpin is how long an idle helper polls for the next loop before
// it blocks: the stages of an ODE come every 10–200 µs and the kernels
// of a sparse solve every few ms, and a polling helper joins within a
// µs where a blocked one costs a wake-up of tens of µs (the spin-wait of
// a multithreaded BLAS, which likewise shows as CPU time of the idle
// core).
const helperSpin = 500 * time.Microsecond

// loop is one call of Loop. Loops are recycled (free): refs counts the
// goroutines that may still touch it (the caller and each helper it was
// handed to), and the last to let go puts it back.
type loop struct {
	n, grain int
	div      uint64 // a claim takes 1/div of the unclaimed pieces (at least one)
	fn       func(lo, hi int)
	total    int64
	span     atomic.Uint64 // unclaimed pieces [lo, hi): lo<<32 | hi
	done     atomic.Int64  // pieces finished or abandoned after a panic
	parked   atomic.Bool   // the caller blocks on finished (see wait)
	refs     atomic.Int32
	crashed  firstPanic
	finished chan struct{} // one token when done reaches total
}

var free struct {
	mu    sync.Mutex
	loops []*loop
}

// newLoop returns a recycled or new loop of total pieces for w
// goroutines, referenced by the caller and w − 1 helpers.
func newLoop(n, grain, total, w int, fn func(lo, hi int)) *loop {
	free.mu.Lock()
	var l *loop
	if k := len(free.loops); k > 0 {
		l, free.loops = free.loops[k-1], free.loops[:k-1]
	}
	free.mu.Unlock()
	if l == nil {
		l = &loop{finished: make(chan struct{}, 1)}
	}
	l.n, l.grain, l.div, l.fn, l.total = n, grain, 4*uint64(w), fn, int64(total)
	l.span.Store(uint64(total))
	l.done.Store(0)
	l.parked.Store(false)
	l.refs.Store(int32(w))
	return l
}

// release drops one reference to l; the last puts it back on the free
// list, emptied of its function and of the token of its end.
func (l *loop) release() {
	if l.refs.Add(-1) != 0 {
		return
	}
	l.fn = nil
	select {
	case <-l.finished:
	default:
	}
	free.mu.Lock()
	free.loops = append(free.loops, l)
	free.mu.Unlock()
}

// work claims and runs pieces until none is left.
func (l *loop) work(front bool) {
	for {
		k, m, ok := claim(&l.span, front, l.div)
		if !ok {
			return
		}
		l.run(k, m)
	}
}

// run runs the m pieces from piece k. After a panic it records it,
// abandons the pieces nobody has claimed, and counts the rest of its run
// as done; the goroutine that finishes the last piece sends the token of
// the end.
func (l *loop) run(k, m int64) {
	p := k
	defer func() {
		finished := m // after a panic at p, the rest of the run is abandoned
		if v := recover(); v != nil {
			lo := int(p) * l.grain
			l.crashed.record(lo, v)
			finished += abandon(&l.span)
		}
		if l.done.Add(finished) == l.total {
			l.finished <- struct{}{}
			if l.parked.Load() {
				runtime.Gosched() // let the woken caller run on this P
			}
		}
	}()
	for ; p < k+m; p++ {
		lo := int(p) * l.grain
		l.fn(lo, min(lo+l.grain, l.n))
	}
}

// wait returns when every piece of l has finished. The pieces still
// running elsewhere take at most one run each: it spins (an idle wait
// would pay a wake-up), then blocks. A blocked caller is woken by the
// goroutine that finishes the last piece, onto that goroutine's P, where
// a busy-waiting helper would keep it from running for up to helperSpin;
// parked tells that goroutine to yield its P at once (see run).
func (l *loop) wait() {
	for t0 := time.Now(); l.done.Load() < l.total; {
		if time.Since(t0) >= waitSpin {
			l.parked.Store(true)
			if l.done.Load() < l.total {
				<-l.finished
			}
			return
		}
	}
}

// claim takes the first (front) or the last min(maxRun, max(1, u/div))
// of the u unclaimed pieces of span (lo<<32 | hi) and returns the first
// and the count. The caller works from the front and the helpers from
// the back, so that while both keep pace each core touches the same
// pieces from loop to loop, which stay in its caches.
func claim(span *atomic.Uint64, front bool, div uint64) (first, count int64, ok bool) {
	for {
		v := span.Load()
		lo, hi := v>>32, v&(1<<32-1)
		if lo >= hi {
			return 0, 0, false
		}
		m := min(maxRun, max(1, (hi-lo)/div))
		k, next := hi-m, lo<<32|(hi-m)
		if front {
			k, next = lo, (lo+m)<<32|hi
		}
		if span.CompareAndSwap(v, next) {
			return int64(k), int64(m), true
		}
	}
}

// abandon claims every unclaimed piece of span, so that none runs after
// a panic, and returns their number.
func abandon(span *atomic.Uint64) int64 {
	for {
		v := span.Load()
		lo, hi := v>>32, v&(1<<32-1)
		if lo >= hi {
			return 0
		}
		if span.CompareAndSwap(v, hi<<32|hi) {
			return int64(hi - lo)
		}
	}
}

// maxHelpers bounds the pool, and queuePerHelper the loops queued per
// helper (the buffer of the hand-off channel holds them all, so queuing
// never blocks). With one loop per helper a helper that missed a short
// loop kept finding the next one refused behind the stale one, and did a
// tenth of the pieces of back-to-back loops instead of half.
const (
	maxHelpers     = 64
	queuePerHelper = 4
)

// pool is the process's pool of helpers, started as needed up to
// GOMAXPROCS − 1 and kept: after each loop a helper polls for the next
// one for helperSpin, then blocks on the channel.
var pool = &helperPool{jobs: make(chan *loop, maxHelpers*queuePerHelper)}

type helperPool struct {
	mu      sync.Mutex
	started atomic.Int32
	pending atomic.Int32 // loops in jobs, not yet taken by a helper
	jobs    chan *loop
}

// submit queues l for up to k helpers, starting helpers while fewer than
// GOMAXPROCS − 1 run, and drops the references of those it could not
// queue it for. A helper that takes a loop already finished returns at
// once, so a helper that fell behind a run of short loops catches up on
// the queue; but at most queuePerHelper loops per helper wait in it, so
// nested loops and loops from several goroutines at once, which find the
// pool busy for long, run on their callers instead of piling up.
func (p *helperPool) submit(l *loop, k int) {
	if want := int32(min(runtime.GOMAXPROCS(0)-1, maxHelpers)); p.started.Load() < want {
		p.mu.Lock()
		for p.started.Load() < want {
			p.started.Add(1)
			go p.run()
		}
		p.mu.Unlock()
	}
	handed := 0
	for ; handed < k; handed++ {
		if p.pending.Add(1) > queuePerHelper*p.started.Load() {
			p.pending.Add(-1)
			break
		}
		p.jobs <- l
	}
	for ; handed < k; handed++ {
		l.release()
	}
}

// run works on the loops handed to it, polling for helperSpin after each
// before it blocks.
func (p *helperPool) run() {
	for {
		l, ok := p.poll()
		if !ok {
			l = <-p.jobs
		}
		p.pending.Add(-1)
		l.work(false)
		l.release()
	}
}

// poll waits up to helperSpin for a loop without blocking.
func (p *helperPool) poll() (*loop, bool) {
	for t0 := time.Now(); time.Since(t0) < helperSpin; {
		select {
		case l := <-p.jobs:
			return l, true
		default: // busy-wait: runtime.Gosched would lose the core for tens of µs
		}
	}
	return nil, false
}
