package cholesky

// Placeholders until the orderings land: the natural order.
func orderAMD(n int, ptr, adj []int) []int { return naturalOrder(n) }
func orderND(n int, ptr, adj []int) []int  { return naturalOrder(n) }

func naturalOrder(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	return p
}
