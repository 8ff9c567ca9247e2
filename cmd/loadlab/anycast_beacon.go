package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/anycast/beacon"
	"github.com/loadlab/loadlab/dataio"
	"github.com/loadlab/loadlab/stability"
)

// anycastBeaconCommand is "loadlab anycast beacon": C estimated from
// beacon counts, with its intervals, and the robust Π_C verdict.
func (a *app) anycastBeaconCommand() *cobra.Command {
	var in networkInput
	var counts string
	var set beacon.Settings
	var priorNet bool
	c := &cobra.Command{
		Use:   "beacon",
		Short: "C estimated from beacon counts, with 95% intervals and a confidence set; the robust Π_C verdict",
		Long: `Estimates the correlation matrix from beacon counts (spec §15): --counts
FILE.csv with the columns region, proxy, count (n_ji beacons of region j
that landed at proxy i, indices from 0). Ĉ_ji = n_ji/n_j with its 95 %
Clopper–Pearson interval, and the simultaneous confidence set (level
1 − --alpha: the intervals at α/(R·K), K = --support or the number of
proxies, intersected with the simplex per row; Bonferroni). An unseen pair
is not taken as zero: its interval is [0, 1 − 0.025^(1/n_j)] (table
"unseen"). A region with no beacons, or fewer than --min-count, is an
error naming it; with --prior-from-network it takes its row of the
network's C instead, with the interval [0, 1] on every pair (listed in a
note).

With a network (--network, or --nodes with --corr), the answer adds per
node the slack of Π_C (spec §5.3) on the network's own C, on Ĉ, and the
robust slack: the worst case over every C of the confidence set (spec
§15.4). A node with robust slack ≥ 0 cannot suffer a locally
uncontrollable overload whatever C in the set is true.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := a.checkOutputs(); err != nil {
				return err
			}
			if counts == "" {
				return usagef("no counts: give --counts FILE.csv (columns region, proxy, count)")
			}
			var nw *anycast.Network
			if in.json != "" || in.nodes != "" || in.corr != "" {
				var err error
				if nw, err = in.load(); err != nil {
					return err
				}
			}
			var opts *dataio.CountsOptions
			if nw != nil {
				opts = &dataio.CountsOptions{Regions: nw.N(), Proxies: nw.N()}
			}
			n, err := dataio.ReadCountsCSVFile(counts, opts)
			if err != nil {
				return err
			}
			if priorNet {
				if nw == nil {
					return usagef("--prior-from-network needs a network (--network, or --nodes with --corr)")
				}
				sp, err := nw.AsSparse()
				if err != nil {
					return err
				}
				set.Prior = sp.Sparse
			}
			h, err := beacon.EstimateC(n, &set)
			if err != nil {
				return err
			}
			ans := beaconAnswer(h)
			if nw != nil {
				if err := robustAnswer(ans, nw, h); err != nil {
					return err
				}
			}
			return a.emit(withNote(ans, in.note()))
		},
	}
	in.register(c)
	c.Flags().StringVar(&counts, "counts", "", "beacon counts `FILE`.csv with columns region, proxy, count")
	c.Flags().Float64Var(&set.Alpha, "alpha", 0.05, "miss probability of the simultaneous confidence set, in (0, 1)")
	c.Flags().IntVar(&set.Support, "support", 0, "at most this many proxies with C_ji > 0 per region (sharpens the set); 0: no bound")
	c.Flags().Int64Var(&set.MinCount, "min-count", 1, "fewest beacons a region may have")
	c.Flags().BoolVar(&priorNet, "prior-from-network", false, "a region below --min-count takes its row of the network's C, with intervals [0, 1], instead of being an error")
	return c
}

// beaconValue is the JSON answer of anycast beacon.
type beaconValue struct {
	Alpha   float64        `json:"alpha"`
	Support int            `json:"support"`
	Entries []beaconEntry  `json:"entries"`
	Unseen  []beaconUnseen `json:"unseen"`
	Prior   []int          `json:"prior_regions,omitempty"`
	Robust  *robustValue   `json:"robust,omitempty"`
}

type beaconEntry struct {
	Region int     `json:"region"`
	Proxy  int     `json:"proxy"`
	Count  int64   `json:"count"`
	C      float64 `json:"c"`
	Lo     float64 `json:"lo"`
	Hi     float64 `json:"hi"`
	SetLo  float64 `json:"set_lo"`
	SetHi  float64 `json:"set_hi"`
}

type beaconUnseen struct {
	Region  int     `json:"region"`
	Beacons int64   `json:"beacons"`
	Hi      float64 `json:"hi"`
	SetHi   float64 `json:"set_hi"`
}

type robustValue struct {
	SlackC      []float64 `json:"slack_c"`
	SlackHat    []float64 `json:"slack_c_hat"`
	SlackRobust []float64 `json:"slack_robust"`
	Robust      bool      `json:"robust"`
}

// beaconAnswer tabulates Ĉ with its intervals.
func beaconAnswer(h *beacon.CHat) *answer {
	t := &table{name: "estimate", cols: []string{"region", "proxy", "count", "C_hat", "lo", "hi", "set_lo", "set_hi"}}
	u := &table{name: "unseen", cols: []string{"region", "beacons", "hi", "set_hi"}}
	v := &beaconValue{Alpha: h.Alpha, Support: h.Support}
	r, _ := h.Counts.Dims()
	k := 0
	for j := 0; j < r; j++ {
		cols, cnt := h.Counts.Row(j)
		_, lo, hi, z := h.Entry.Row(j)
		_, slo, shi, sz := h.Set.Row(j)
		for m, i := range cols {
			e := beaconEntry{Region: j, Proxy: i, Count: cnt[m], C: h.Freq[k], Lo: lo[m], Hi: hi[m], SetLo: slo[m], SetHi: shi[m]}
			t.add(j, i, int(e.Count), e.C, e.Lo, e.Hi, e.SetLo, e.SetHi)
			v.Entries = append(v.Entries, e)
			k++
		}
		un := beaconUnseen{Region: j, Beacons: h.Counts.Total(j), Hi: z, SetHi: sz}
		u.add(j, int(un.Beacons), un.Hi, un.SetHi)
		v.Unseen = append(v.Unseen, un)
	}
	note := fmt.Sprintf("Intervals: 95%% Clopper–Pearson per entry (lo, hi); simultaneous set at level %g (set_lo, set_hi: per entry at α/(R·K) = %.3g, with rows on the simplex; spec §15.3). Unseen pairs: C_ji in [0, hi].",
		1-h.Alpha, h.Set.EntryAlpha)
	notes := []string{note}
	if len(h.Prior) > 0 {
		v.Prior = h.Prior
		notes = append(notes, fmt.Sprintf("%d regions below --min-count take their row of the network's C, with intervals [0, 1]: %v.", len(h.Prior), h.Prior))
	}
	return &answer{tables: []*table{t, u}, value: v, notes: notes}
}

// robustAnswer adds the Π_C slacks on the network's C, on Ĉ and over the
// confidence set.
func robustAnswer(ans *answer, nw *anycast.Network, h *beacon.CHat) error {
	chat, err := h.Matrix()
	if err != nil {
		return err
	}
	nh, err := anycast.NewNetwork(nw.A, chat, nw.T)
	if err != nil {
		return err
	}
	rv := &robustValue{}
	if rv.SlackC, err = stability.PolytopeSlack(nw); err != nil {
		return err
	}
	if rv.SlackHat, err = stability.PolytopeSlack(nh); err != nil {
		return err
	}
	if rv.SlackRobust, err = stability.RobustSlack(nw, h.Set); err != nil {
		return err
	}
	t := &table{name: "robust", cols: []string{"node", "T", "slack on C", "slack on C_hat", "robust slack", "verdict"}}
	bad := 0
	for i, s := range rv.SlackRobust {
		verdict := "safe for every C in the set"
		if s < 0 {
			verdict = "may be uncontrollable"
			bad++
		}
		t.add(i, nw.T[i], rv.SlackC[i], rv.SlackHat[i], s, verdict)
	}
	rv.Robust = bad == 0
	ans.tables = append(ans.tables, t)
	ans.value.(*beaconValue).Robust = rv
	ans.notes = append(ans.notes, fmt.Sprintf("Robust Π_C check (spec §15.4): %d of %d nodes have negative robust slack; A is %s Π_C for every C of the %g confidence set. The network's A and T are used; its own C only for the first slack column.",
		bad, len(rv.SlackRobust), map[bool]string{true: "inside", false: "not inside"}[bad == 0], 1-h.Alpha))
	return nil
}
