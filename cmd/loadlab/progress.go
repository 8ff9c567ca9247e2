package main

import (
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progressDelay is how long work runs before progress is drawn: shorter
// work shows nothing.
const progressDelay = time.Second

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// progress shows the advance of long work on stderr: a bar when the
// total is known, a spinner with the elapsed time otherwise. It draws
// nothing when stderr is not a terminal or --quiet is set, and nothing
// for work that ends within progressDelay. Its methods are safe on a nil
// *progress and from any goroutine.
type progress struct {
	mu    sync.Mutex
	timer *time.Timer
	bar   *progressbar.ProgressBar
	count int64
	ended bool
	desc  string
}

// startProgress begins a progress display of total steps (−1: unknown)
// described by desc.
func (a *app) startProgress(total int64, desc string) *progress {
	p := &progress{desc: desc}
	if a.quiet || !a.stderrTTY {
		return p
	}
	w := a.stderr
	p.timer = time.AfterFunc(progressDelay, func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.ended {
			return
		}
		p.bar = progressbar.NewOptions64(total,
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription(p.desc),
			progressbar.OptionShowCount(),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionSetPredictTime(total > 0),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionSpinnerType(14),
		)
		p.bar.Set64(p.count)
	})
	return p
}

// add advances the display by n steps.
func (p *progress) add(n int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.count += int64(n)
	if p.bar != nil {
		p.bar.Set64(p.count)
	}
}

// describe replaces the description beside the display.
func (p *progress) describe(desc string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.desc = desc
	if p.bar != nil {
		p.bar.Describe(desc)
	}
}

// done ends the display and clears it.
func (p *progress) done() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ended = true
	if p.timer != nil {
		p.timer.Stop()
	}
	if p.bar != nil {
		p.bar.Finish()
		p.bar.Clear()
	}
}
