// Package datasets ships four real networks for tests, examples and
// figures, embedded in the binary: the US Western power grid (Watts and
// Strogatz 1998), the network-science co-authorship graph (Newman 2006),
// Zachary's karate club (Zachary 1977) and the Internet at the level of
// autonomous systems (Newman, 2006 snapshot). Each is the largest
// connected component of its network; README.md in this folder gives
// sizes, sources and the citations, which a user of the data must keep.
//
// Node labels are the files' node numbers "0".."n−1", and node i of the
// returned graph has label i. Unweighted networks have unit weights.
//
// # Errors and panics
//
// The functions take no arguments and return no error: the files are part
// of the module and tested, so a file that fails to parse is a build
// defect, and the function panics naming it.
package datasets

import (
	"bytes"
	_ "embed"
	"fmt"
	"strconv"

	"github.com/loadlab/loadlab/graphio"
	"github.com/loadlab/loadlab/wgraph"
)

var (
	//go:embed power.csv
	power []byte
	//go:embed netscience.csv
	netscience []byte
	//go:embed karate.csv
	karate []byte
	//go:embed as-22july06.csv
	internetAS []byte
)

// PowerGrid returns the topology of the Western States Power Grid of the
// United States: 4941 nodes, 6594 edges, unit weights.
// Cite: D. J. Watts and S. H. Strogatz, "Collective dynamics of
// 'small-world' networks", Nature 393, 440–442 (1998).
func PowerGrid() *graphio.Data { return load("power.csv", power) }

// NetScience returns the largest component (379 nodes, 914 edges) of the
// co-authorship network of network scientists, with co-authorship
// weights (0.125–4.75).
// Cite: M. E. J. Newman, "Finding community structure in networks using
// the eigenvectors of matrices", Phys. Rev. E 74, 036104 (2006).
func NetScience() *graphio.Data { return load("netscience.csv", netscience) }

// Karate returns Zachary's karate club: 34 members, 78 friendships, unit
// weights.
// Cite: W. W. Zachary, "An information flow model for conflict and
// fission in small groups", J. Anthropological Research 33, 452–473 (1977).
func Karate() *graphio.Data { return load("karate.csv", karate) }

// InternetAS returns a symmetrised snapshot of the Internet at the level of
// autonomous systems on July 22, 2006: 22 963 nodes, 48 436 edges, unit
// weights, a few hubs of degree up to 2390 (the largest component).
// Cite: M. E. J. Newman, Internet AS-level snapshot of July 22, 2006,
// reconstructed from BGP tables of the University of Oregon Route Views
// Project (unpublished).
func InternetAS() *graphio.Data { return load("as-22july06.csv", internetAS) }

// load parses an embedded file. The files are part of the module and
// tested, so a parse error is a build defect: load panics.
func load(name string, src []byte) *graphio.Data {
	d, err := graphio.ReadEdgeList(bytes.NewReader(src), nil)
	if err != nil {
		panic(fmt.Sprintf("datasets: embedded %s: %v", name, err))
	}
	if err := numericOrder(d); err != nil {
		panic(fmt.Sprintf("datasets: embedded %s: %v", name, err))
	}
	return d
}

// numericOrder renumbers d so that node i is the node labelled i (the
// reader numbers nodes in order of first appearance).
func numericOrder(d *graphio.Data) error {
	n := d.Graph.Order()
	perm := make([]int, n)
	for i, l := range d.Labels {
		k, err := strconv.Atoi(l)
		if err != nil || k < 0 || k >= n {
			return fmt.Errorf("label %q is not a node number in [0, %d)", l, n)
		}
		perm[i] = k
	}
	es := d.Graph.Edges()
	for i := range es {
		es[i].U, es[i].V = perm[es[i].U], perm[es[i].V]
	}
	g, err := wgraph.FromEdges(n, es)
	if err != nil {
		return err
	}
	d.Graph = g
	for i := range d.Labels {
		d.Labels[i] = strconv.Itoa(i)
	}
	return nil
}
