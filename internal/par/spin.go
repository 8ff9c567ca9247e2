// Spin: the persistent pool of busy-waiting helpers for short loops.

package par

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Workers returns the number of goroutines a loop of the given work
// (any unit) uses: 1 below minWork, GOMAXPROCS from there on.
func Workers(work, minWork int) int {
	if work < minWork {
		return 1
	}
	return runtime.GOMAXPROCS(0)
}

// waitSpin bounds how long Spin spins for pieces still being computed
// by other goroutines before it blocks.
const waitSpin = 200 * time.Microsecond

// Spin calls fn(lo, hi) on runs of the pieces [k·grain, (k+1)·grain) ∩
// [0, n), each piece in exactly one run, with w goroutines: the caller
// and w − 1 helpers of the pool, which claim runs one at a time (the
// caller from the front, the helpers from the back), each of about
// 1/(4w) of the pieces still unclaimed and at most maxRun pieces. lo is
// a multiple of grain, and hi is one too or n. The caller starts at once
// and does not wait for a helper that has not claimed a piece yet: waking
// an idle core costs tens of µs on a virtual machine, as much as a whole
// loop, so with a fixed split the caller would wait for the late half.
// The helpers busy-wait between loops (helperSpin), so in a run of
// loops they join within a µs. When a helper holding the last run is
// descheduled, the caller blocks after waitSpin, and the helper that
// ends the loop hands its core to the caller at once (see wait): before
// that, a blocked caller could wait a whole helperSpin for its P, and
// about 1 % of the N = 1000 ODE's stage passes took 0.7 ms instead of
// 70 µs (docs/benchmarks.md). A panic in fn is re-raised on the caller
// as a *PanicError (unchanged when w ≤ 1 or there is one piece).
//
// Spin panics if grain < 1.
func Spin(n, w, grain int, fn func(lo, hi int)) {
	if grain < 1 {
		panic("par: Spin: grain < 1")
	}
	if n <= 0 {
		return
	}
	total := int64((n + grain - 1) / grain)
	if w <= 1 || total == 1 {
		for lo := 0; lo < n; lo += grain {
			fn(lo, min(lo+grain, n))
		}
		return
	}
	l := &loop{n: n, grain: grain, div: 4 * uint64(w), fn: fn, total: total, finished: make(chan struct{})}
	l.span.Store(uint64(total))
	for range min(int64(w), total) - 1 {
		helpers.submit(l)
	}
	l.work(true)
	l.wait()
	l.crashed.reraise()
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
			<-l.finished
			return
		}
	}
}

// loop is one call of Spin.
type loop struct {
	n, grain int
	div      uint64 // a claim takes 1/div of the unclaimed pieces (at least one)
	fn       func(lo, hi int)
	total    int64
	span     atomic.Uint64 // unclaimed pieces [lo, hi): lo<<32 | hi
	done     atomic.Int64
	parked   atomic.Bool // the caller blocks on finished (see wait)
	crashed  firstPanic
	finished chan struct{}
}

// work claims and runs runs of pieces until none is left.
func (l *loop) work(front bool) {
	for {
		k, m, ok := claim(&l.span, front, l.div)
		if !ok {
			return
		}
		l.run(k, m)
	}
}

// run runs the m pieces from piece k, recording a panic, and closes
// finished after the last piece.
func (l *loop) run(k, m int64) {
	defer func() {
		if v := recover(); v != nil {
			l.crashed.record(int(k), v)
		}
		if l.done.Add(m) == l.total {
			close(l.finished)
			if l.parked.Load() {
				runtime.Gosched() // let the woken caller run on this P
			}
		}
	}()
	lo := int(k) * l.grain
	l.fn(lo, min(lo+int(m)*l.grain, l.n))
}

// maxRun bounds the pieces of a claim: a goroutine descheduled by the OS
// in the middle of a run (on a loaded machine) holds the others up by at
// most that much work.
const maxRun = 4

// claim takes the first (front) or the last min(maxRun, max(1, u/div))
// of the u unclaimed pieces of span (lo<<32 | hi) and returns the first
// and the count. The caller of Spin works from the front and the helpers from
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

// helperSpin is how long a helper polls for the next loop before it
// blocks: an ODE runs a loop every 10–200 µs, and a helper that is still
// polling joins within a µs where a blocked one costs a wake-up of tens
// of µs (the spin-wait of a multithreaded BLAS, which likewise shows as
// CPU time of the idle core).
const helperSpin = 500 * time.Microsecond

// helpers is the process's pool of goroutines that join Spin's loops,
// started as needed up to GOMAXPROCS − 1 and kept (blocked on a channel
// once idle for helperSpin).
var helpers = &helperPool{jobs: make(chan *loop, 64)}

type helperPool struct {
	mu      sync.Mutex
	started int
	jobs    chan *loop
}

// submit hands l to a helper, starting one if fewer than GOMAXPROCS − 1
// run, or to a new goroutine if the queue is full.
func (p *helperPool) submit(l *loop) {
	p.mu.Lock()
	if p.started < runtime.GOMAXPROCS(0)-1 {
		p.started++
		go p.run()
	}
	p.mu.Unlock()
	select {
	case p.jobs <- l:
	default:
		go l.work(false)
	}
}

// run works on loops, polling for helperSpin after each before it blocks.
func (p *helperPool) run() {
	for {
		l, ok := p.poll()
		if !ok {
			l = <-p.jobs
		}
		l.work(false)
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
