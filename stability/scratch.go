// The matrices of a dense integration, kept between calls.

package stability

import (
	"sync"

	"github.com/loadlab/loadlab/anycast"
)

// scratch holds what an integration forms on a dense network: the load
// matrix B (anycast.LoadOp) and the two reduced operators of reduce.go,
// one read while the other is built.
type scratch struct {
	op   anycast.LoadOp
	reds [2]anycast.Reduced
}

// scratchPool keeps the scratch of finished integrations on dense
// networks of at most poolMaxEntries entries, so that a run of
// integrations (Attractors' starts, a sweep, a benchmark) forms B and the
// reduced operators in pages it already has (LoadOp.Form, Reduced.Reduce
// and Narrow reuse their storage). At N = 1000 fresh pages for the 8 MB
// of B and the ≈ 15 MB of the reduced operators cost 2–5 ms a call in
// page faults and zeroing, a tenth of the whole integration, and forming
// B into them took three times as long as into pages already mapped. The
// garbage collector empties a sync.Pool, so the memory is not held for
// long after the last call.
var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// poolMaxEntries bounds the networks whose scratch is pooled: N² ≤ 2²¹
// (N ≤ 1448), at most three matrices of 16 MB kept between calls. Above
// it the integration runs long enough for its own allocation not to
// matter as much, and keeping hundreds of megabytes would.
const poolMaxEntries = 1 << 21

// formScratch forms the load matrix of the law's network into a scratch,
// taken from scratchPool for a dense network within poolMaxEntries.
func (sys *system) formScratch() error {
	nw := sys.law.Net
	sys.pooled = nw.Sparse == nil && nw.N() <= poolMaxEntries/nw.N()
	scr := new(scratch)
	if sys.pooled {
		scr = scratchPool.Get().(*scratch)
	}
	if err := scr.op.Form(nw); err != nil {
		if sys.pooled {
			scratchPool.Put(scr) // Form left it unchanged
		}
		return err
	}
	sys.scr, sys.op = scr, &scr.op
	return nil
}

// release ends the integration's use of its scratch, returning it to the
// pool if it came from there. The trajectory tr (nil allowed) drops its
// reference to the load matrix, which it needs only while recording.
func (sys *system) release(tr *Trajectory) {
	if tr != nil {
		tr.op = nil
	}
	if sys.pooled {
		scratchPool.Put(sys.scr)
	}
	sys.scr, sys.op, sys.red, sys.pooled = nil, nil, nil, false
}
