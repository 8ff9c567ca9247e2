package linalg

// graphCSR returns the compressed adjacency of g: the neighbours of u are
// adj[off[u]:off[u+1]] with weights w[off[u]:off[u+1]].
//
// TODO(sparse): temporary until the compact graph lands; then g.CSR().
func graphCSR(g *Graph) (off []int, adj []int32, w []float64) {
	n := g.Order()
	off = make([]int, n+1)
	for u := range n {
		off[u+1] = off[u] + len(g.nbr[u])
	}
	adj = make([]int32, off[n])
	w = make([]float64, off[n])
	for u := range n {
		for i, v := range g.nbr[u] {
			adj[off[u]+i] = int32(v)
		}
		copy(w[off[u]:], g.wt[u])
	}
	return off, adj, w
}
