package cholesky

func orderND(n int, ptr, adj []int) []int { return orderAMD(n, ptr, adj) }
