// The matrices of a dense integration, and the workspace that keeps them
// between calls.

package stability

import (
	"sync/atomic"

	"github.com/loadlab/loadlab/anycast"
)

// Workspace keeps the matrices of a dense integration between calls of
// Law.Integrate and Law.IntegrateLogit (Settings.Workspace): the load
// matrix B = Cᵀ diag(A) and the two operators with the settled nodes'
// columns summed once, up to three N×N matrices of float64 (24 MB at
// N = 1000). An integration with a workspace forms them in the memory the
// last one left there, instead of in fresh pages, whose faults and
// zeroing cost 2–5 ms a call at N = 1000 (a tenth of the integration);
// it keeps them there when it returns. A workspace is not tied to a law
// or a size: it holds the matrices of the last dense integration that
// used it, until it is garbage. Its zero value is ready to use, and it is
// safe for concurrent use: an integration that finds the matrices taken
// by another forms its own. Integrations on sparse networks do not use
// it (their operator is O(nnz) and shares the network's storage).
type Workspace struct {
	p atomic.Pointer[scratch]
}

// scratch holds what an integration forms on a dense network: the load
// matrix B (anycast.LoadOp) and the two reduced operators of reduce.go,
// one read while the other is built.
type scratch struct {
	op   anycast.LoadOp
	reds [2]anycast.Reduced
}

// formScratch forms the load matrix of the law's network into a scratch:
// the one kept in ws for a dense network if ws is not nil and holds one,
// otherwise a new one (given back to ws by release).
func (sys *system) formScratch(ws *Workspace) error {
	nw := sys.law.Net
	sys.ws = nil
	if ws != nil && nw.Sparse == nil {
		sys.ws = ws
	}
	var scr *scratch
	if sys.ws != nil {
		scr = ws.p.Swap(nil)
	}
	if scr == nil {
		scr = new(scratch)
	}
	if err := scr.op.Form(nw); err != nil {
		if sys.ws != nil {
			ws.p.Store(scr) // Form left it unchanged
		}
		return err
	}
	sys.scr, sys.op = scr, &scr.op
	return nil
}

// release ends the integration's use of its scratch, keeping it in the
// workspace if there is one. The trajectory tr (nil allowed) drops its
// reference to the load matrix, which it needs only while recording.
func (sys *system) release(tr *Trajectory) {
	if tr != nil {
		tr.op = nil
	}
	if sys.ws != nil {
		sys.ws.p.Store(sys.scr)
	}
	sys.scr, sys.op, sys.red, sys.ws = nil, nil, nil, nil
}
