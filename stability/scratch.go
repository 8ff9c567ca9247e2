// The matrices of a dense integration, kept between calls.

package stability

import (
	"sync/atomic"

	"github.com/loadlab/loadlab/anycast"
)

// scratch holds what an integration forms on a dense network: the load
// matrix B (anycast.LoadOp) and the two reduced operators of reduce.go,
// one read while the other is built.
type scratch struct {
	op   anycast.LoadOp
	reds [2]anycast.Reduced
}

// scratchCache keeps the scratch of a law's last integration on a dense
// network of at most keepMaxEntries entries, so that its next integration
// (Attractors' starts, a sweep, a benchmark) forms B and the reduced
// operators in pages it already has (LoadOp.Form, Reduced.Reduce and
// Narrow reuse their storage). At N = 1000 fresh pages for the 8 MB of B
// and the ≈ 15 MB of the reduced operators cost about a tenth of the
// whole integration in page faults and zeroing, and forming B into them
// takes three times as long as into pages already mapped
// (docs/benchmarks-log.md). The law owns it, so the memory goes with the
// law. (A sync.Pool would miss most of the time: it keeps an item on the
// P that put it, and the integrating goroutine moves between the Ps of
// the spinning helpers.) Integrations
// running at once on one law each take the scratch or make their own.
type scratchCache struct {
	p atomic.Pointer[scratch]
}

// keepMaxEntries bounds the networks whose scratch is kept: N² ≤ 2²¹
// (N ≤ 1448), at most three matrices of 16 MB. Above it the integration
// runs long enough for its own allocation not to matter as much, and
// keeping hundreds of megabytes would.
const keepMaxEntries = 1 << 21

// formScratch forms the load matrix of the law's network into a scratch,
// the law's kept one for a dense network within keepMaxEntries.
func (sys *system) formScratch() error {
	nw, cache := sys.law.Net, sys.law.cache
	sys.kept = cache != nil && nw.Sparse == nil && nw.N() <= keepMaxEntries/nw.N()
	var scr *scratch
	if sys.kept {
		scr = cache.p.Swap(nil)
	}
	if scr == nil {
		scr = new(scratch)
	}
	if err := scr.op.Form(nw); err != nil {
		if sys.kept {
			cache.p.Store(scr) // Form left it unchanged
		}
		return err
	}
	sys.scr, sys.op = scr, &scr.op
	return nil
}

// release ends the integration's use of its scratch, keeping it in the
// law's cache if it may. The trajectory tr (nil allowed) drops its
// reference to the load matrix, which it needs only while recording.
func (sys *system) release(tr *Trajectory) {
	if tr != nil {
		tr.op = nil
	}
	if sys.kept {
		sys.law.cache.p.Store(sys.scr)
	}
	sys.scr, sys.op, sys.red, sys.kept = nil, nil, nil, false
}
