package graphio

import (
	"strings"
	"testing"
)

// Header detection and column choice: each file gives the labelled edges
// listed, and Data reports what the reader did (rule in edgelist_header.go
// and the package comment).
func TestEdgeListHeader(t *testing.T) {
	for _, c := range []struct {
		name, src  string
		opts       *Options
		edges      map[[2]string]float64
		ignored    string
		unweighted bool
	}{
		{"usual names", "source target weight\n0 1 2\n", nil, map[[2]string]float64{{"0", "1"}: 2}, "", false},
		{"names over numbers", "node_a,node_b\n1,2\n2,3\n", nil, map[[2]string]float64{{"1", "2"}: 1, {"2", "3"}: 1}, "", true},
		{"names over numbers, weighted", "a_end,b_end,weight\n1,2,4\n", nil, map[[2]string]float64{{"1", "2"}: 4}, "", false},
		{"names over names", "paris london\nlondon berlin\n", nil, map[[2]string]float64{{"london", "paris"}: 1, {"berlin", "london"}: 1}, "", true},
		{"names over names, weighted", "paris,london,2\nlondon,berlin,3\n", nil, map[[2]string]float64{{"london", "paris"}: 2, {"berlin", "london"}: 3}, "", false},
		{"one line of names", "paris,london\n", nil, map[[2]string]float64{{"london", "paris"}: 1}, "", true},
		{"forced header", "src_host,dst_host,weight\nweb,db,3\n", &Options{Header: HeaderYes}, map[[2]string]float64{{"db", "web"}: 3}, "", false},
		{"forced data", "u v 2\n", &Options{Header: HeaderNo}, map[[2]string]float64{{"u", "v"}: 2}, "", false},
		{"named weight column", "src_host,dst_host,latency\nweb,db,3\n", &Options{Weight: "latency"}, map[[2]string]float64{{"db", "web"}: 3}, "", false},
		{"w is the weight", "u,v,w\n0,1,0.5\n", nil, map[[2]string]float64{{"0", "1"}: 0.5}, "", false},
		{"named extra column", "from,to,weight,colour\na,b,2,red\n", nil, map[[2]string]float64{{"a", "b"}: 2}, `column "colour"`, false},
		{"ignored third column", "source,target,timestamp\na,b,1700000000\n", &Options{ExtraColumns: IgnoreExtra}, map[[2]string]float64{{"a", "b"}: 1}, `column "timestamp"`, true},
		{"timestamp chosen", "source,target,timestamp\na,b,17\n", &Options{Weight: "timestamp"}, map[[2]string]float64{{"a", "b"}: 17}, "", false},
		{"ignored fourth field", "a b 1 x\nb c 2\nc d 3 y z\n", &Options{ExtraColumns: IgnoreExtra}, map[[2]string]float64{{"a", "b"}: 1, {"b", "c"}: 2, {"c", "d"}: 3}, "column 4,column 5", false},
		{"ignored beyond header", "u,v,w\na,b,1,x\n", &Options{ExtraColumns: IgnoreExtra}, map[[2]string]float64{{"a", "b"}: 1}, "column 4", false},
		// A byte-order mark is encoding, not part of the first name.
		{"byte-order mark", "\ufeffsource,target,weight\na,b,2\n", &Options{Source: "source", Target: "target"}, map[[2]string]float64{{"a", "b"}: 2}, "", false},
	} {
		d, err := ReadEdgeList(strings.NewReader(c.src), c.opts)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := labelled(d); !sameEdges(got, c.edges) {
			t.Errorf("%s: edges %v, want %v", c.name, got, c.edges)
		}
		if got := strings.Join(d.Ignored, ","); got != c.ignored || d.Unweighted != c.unweighted {
			t.Errorf("%s: Ignored %q, Unweighted %v; want %q, %v", c.name, got, d.Unweighted, c.ignored, c.unweighted)
		}
	}
}

// The error on a first line read as data says how to make it a header.
func TestEdgeListHeaderHint(t *testing.T) {
	_, err := ReadEdgeList(strings.NewReader("src_host,dst_host,latency\nweb,db,3\n"), nil)
	if err == nil || !strings.Contains(err.Error(), "Options.Header = HeaderYes") {
		t.Errorf("got %v, want a hint naming Options.Header", err)
	}
}
