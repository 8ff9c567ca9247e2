package graphio

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/loadlab/loadlab/wgraph"
)

// Data is a graph read from a file, with what the reader did to it.
type Data struct {
	Graph *wgraph.Graph
	// Labels[i] is the label of node i in the file.
	Labels []string
	// Components are the sizes of the connected components of the graph
	// as read (before Options.Largest), largest first. One entry means
	// connected.
	Components []int
	// Merged counts duplicate edges summed or dropped (SumDuplicates,
	// KeepFirst); SelfLoops counts self-loops dropped (DropSelfLoops).
	Merged, SelfLoops int
	// Defaulted counts the edges whose weight is Options.DefaultWeight
	// because the file gives them none.
	Defaulted int
	// Unweighted reports a file that gives no edge a weight: every weight
	// is then Options.DefaultWeight, or 1 when that is 0 and the format
	// has no weights (an edge list without a weight column, a pattern
	// Matrix Market file).
	Unweighted bool
	// Ignored names the edge list columns read but not used: header
	// names, or "column k" (1-based) in a file without a header.
	Ignored []string
	// Zeros counts the explicit zero entries of a Matrix Market file,
	// which are not edges.
	Zeros int
}

// collector accumulates labelled edges. Self-loops and directedness are
// handled as edges arrive; duplicates are found when the graph is built
// (a CSR build detects them for free), and only then does a second pass
// apply the Duplicates rule, so the common clean file pays nothing.
type collector struct {
	opts   Options
	index  map[string]int32
	intIdx []int32 // index of the node labelled by the canonical decimal k, or −1
	labels []string
	edges  []wgraph.Edge
	lines  []int32 // line of each edge, for error messages
	data   Data
	// display, if not nil, replaces labels in the result (node labels
	// taken from an attribute; errors keep naming the file's ids).
	display []string
	// labelBytes is the length of the labels, and cost the reader's
	// memory per node and edge, for the memory guard.
	labelBytes int
	cost       readCost
	base       int // memory held before the first node (a DOT document)
}

func newCollector(o Options, cost readCost) *collector {
	return &collector{opts: o, index: map[string]int32{}, cost: cost}
}

// node returns the index of label, adding it if new. Labels that are
// small canonical decimals ("0", "17", not "017") are looked up in a
// slice, the common case of numbered nodes; the others in a map. The
// two stores are disjoint, so the mapping stays one to one.
func (c *collector) node(line int, label string) (int32, error) {
	k, isInt := c.smallInt(label)
	if isInt && k < len(c.intIdx) && c.intIdx[k] >= 0 {
		return c.intIdx[k], nil
	}
	// A decimal label seen when the bound was lower lives in the map.
	if i, ok := c.index[label]; ok {
		return i, nil
	}
	if len(c.labels) >= math.MaxInt32 {
		return 0, &ParseError{Line: line, Field: "node", Value: label, Msg: "more than 2^31 − 1 nodes", Err: errTooLarge}
	}
	// The label may point into the line it was read from: keep a copy
	// of its own, so memory follows the labels and not the lines.
	label = strings.Clone(label)
	c.labelBytes += len(label)
	if err := c.checkMemory(line, len(c.labels)+1, len(c.edges)); err != nil {
		return 0, err
	}
	i := int32(len(c.labels))
	if isInt {
		if k >= len(c.intIdx) {
			// Double (append grows large slices by a quarter, which
			// allocates five times the final size on the way).
			grown := make([]int32, max(k+1, 2*len(c.intIdx)))
			copy(grown, c.intIdx)
			for j := len(c.intIdx); j < len(grown); j++ {
				grown[j] = -1
			}
			c.intIdx = grown
		}
		c.intIdx[k] = i
	} else {
		c.index[label] = i
	}
	c.labels = push(c.labels, label)
	return i, nil
}

// lookup returns the index of a known label.
func (c *collector) lookup(label string) (int32, bool) {
	if k, ok := c.smallInt(label); ok && k < len(c.intIdx) && c.intIdx[k] >= 0 {
		return c.intIdx[k], true
	}
	i, ok := c.index[label]
	return i, ok
}

// smallInt parses a canonical decimal label below a bound that keeps the
// slice store at most a few times larger than the number of nodes.
func (c *collector) smallInt(s string) (int, bool) {
	if len(s) == 0 || len(s) > 8 || (s[0] == '0' && len(s) > 1) {
		return 0, false
	}
	k := 0
	for i := 0; i < len(s); i++ {
		d := s[i] - '0'
		if d > 9 {
			return 0, false
		}
		k = 10*k + int(d)
	}
	if k >= max(1<<20, 4*len(c.labels)) {
		return 0, false
	}
	return k, true
}

// weight parses a weight field, which must not be empty.
func weight(line int, field, s string) (float64, error) {
	w, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, bad(line, field, s, "weight out of the float64 range; must be positive and finite, within [2^-500, 2^500]")
		}
		return 0, bad(line, field, s, "not a number")
	}
	if !(w >= wgraph.MinWeight && w <= wgraph.MaxWeight) {
		return 0, bad(line, field, s, "weight must be positive and finite, within [2^-500, 2^500]")
	}
	return w, nil
}

// add records edge {u, v} of weight w read at line. directed says the
// file gave it as an arc.
func (c *collector) add(line int, u, v string, w float64, directed bool) error {
	if directed && c.opts.Directed == RejectDirected {
		return bad(line, "edge", u+" -> "+v, "directed input; set Options.Directed = Symmetrize to read arcs as edges")
	}
	a, err := c.node(line, u)
	if err != nil {
		return err
	}
	b, err := c.node(line, v)
	if err != nil {
		return err
	}
	return c.addIndex(line, a, b, w)
}

// addIndex is add on node indices (Matrix Market).
func (c *collector) addIndex(line int, a, b int32, w float64) error {
	if a == b {
		if c.opts.SelfLoops == DropSelfLoops {
			c.data.SelfLoops++
			return nil
		}
		return bad(line, "edge", c.name(a)+" "+c.name(b), "self-loop; set Options.SelfLoops = DropSelfLoops to skip it")
	}
	if a > b {
		a, b = b, a
	}
	if err := c.checkMemory(line, len(c.labels), len(c.edges)+1); err != nil {
		return err
	}
	c.edges = push(c.edges, wgraph.Edge{U: int(a), V: int(b), W: w})
	c.lines = push(c.lines, int32(min(line, math.MaxInt32)))
	return nil
}

// dedupe applies the Duplicates rule to c.edges in file order.
func (c *collector) dedupe() error {
	pos := make(map[[2]int]int, len(c.edges))
	out := c.edges[:0]
	for k, e := range c.edges {
		key := [2]int{e.U, e.V}
		i, dup := pos[key]
		if !dup {
			pos[key] = len(out)
			out = append(out, e)
			continue
		}
		line := int(c.lines[k])
		switch c.opts.Duplicates {
		case SumDuplicates:
			s := out[i].W + e.W
			if s > wgraph.MaxWeight {
				return bad(line, "weight", strconv.FormatFloat(e.W, 'g', -1, 64), "sum of duplicate weights of {%s, %s} exceeds 2^500", c.name(int32(e.U)), c.name(int32(e.V)))
			}
			out[i].W = s
		case KeepFirst:
		default:
			return bad(line, "edge", c.name(int32(e.U))+" "+c.name(int32(e.V)), "duplicate edge; set Options.Duplicates to SumDuplicates or KeepFirst")
		}
		c.data.Merged++
	}
	c.edges = out
	return nil
}

func (c *collector) name(i int32) string {
	if int(i) < len(c.labels) {
		return c.labels[i]
	}
	return strconv.Itoa(int(i) + 1)
}

// finish builds the graph, reports components and applies Largest.
func (c *collector) finish() (*Data, error) {
	g, err := build(len(c.labels), c.edges)
	if err != nil {
		// The only error a valid edge set can give is a duplicate edge.
		if err := c.dedupe(); err != nil {
			return nil, err
		}
		if g, err = build(len(c.labels), c.edges); err != nil {
			return nil, err
		}
	}
	d := c.data
	d.Labels = c.labels
	if c.display != nil {
		d.Labels = c.display
	}
	d.Graph = g
	comps := components(g)
	d.Components = make([]int, len(comps))
	for i, cm := range comps {
		d.Components[i] = len(cm)
	}
	if c.opts.Largest && len(comps) > 1 {
		d.Graph, d.Labels = keep(g, d.Labels, comps[0])
	}
	return &d, nil
}

// push appends v to s, doubling the capacity when s is full: append
// grows a large slice by a quarter, which allocates about five times the
// final size on the way, twice what doubling does.
func push[T any](s []T, v T) []T {
	if len(s) == cap(s) {
		s = slices.Grow(s, max(len(s), 8))
	}
	return append(s, v)
}
