package graphio_test

import (
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/loadlab/loadlab/graphio"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
)

// A weighted edge list with a header, string labels and a duplicate link
// that the file means as two parallel cables (conductances add).
func ExampleReadEdgeList() {
	src := `source,target,weight
paris,london,2
london,berlin,1
berlin,paris,0.5
paris,london,1
`
	d, err := graphio.ReadEdgeList(strings.NewReader(src), &graphio.Options{Duplicates: graphio.SumDuplicates})
	if err != nil {
		log.Fatal(err)
	}
	kf, err := spectral.KirchhoffIndex(d.Graph)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(d.Labels, "edges:", d.Graph.Size(), "merged:", d.Merged)
	// R = 0.3 + 0.7 + 0.8 by series and parallel conductances.
	fmt.Printf("w(paris, london) = %g, Kirchhoff index = %.4g\n", d.Graph.Weight(0, 1), kf)
	// Output:
	// [paris london berlin] edges: 3 merged: 1
	// w(paris, london) = 3, Kirchhoff index = 1.8
}

// Errors name the line, the column and the value.
func ExampleParseError() {
	_, err := graphio.ReadEdgeList(strings.NewReader("a,b,1\nb,c,-2\n"), nil)
	fmt.Println(err)
	// Output:
	// graphio: 2: column 3 = "-2": weight must be positive and finite, within [2^-500, 2^500]: invalid argument
}

func ExampleWriteGraphML() {
	g, err := wgraph.FromEdges(3, []wgraph.Edge{{U: 0, V: 1, W: 2}, {U: 1, V: 2, W: 0.5}})
	if err != nil {
		log.Fatal(err)
	}
	if err := graphio.WriteGraphML(os.Stdout, g, []string{"edge-a", "core", "edge-b"}); err != nil {
		log.Fatal(err)
	}
	// Output:
	// <?xml version="1.0" encoding="UTF-8"?>
	// <graphml xmlns="http://graphml.graphdrawing.org/xmlns">
	//   <key id="d0" for="edge" attr.name="weight" attr.type="double"/>
	//   <graph id="G" edgedefault="undirected">
	//     <node id="edge-a"/>
	//     <node id="core"/>
	//     <node id="edge-b"/>
	//     <edge source="edge-a" target="core"><data key="d0">2</data></edge>
	//     <edge source="core" target="edge-b"><data key="d0">0.5</data></edge>
	//   </graph>
	// </graphml>
}
