package main

import (
	"os"

	"github.com/loadlab/loadlab/plots"
)

func writeCSV(path string, tab *plots.Table) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer func() {
		if e := f.Close(); err == nil {
			err = e
		}
	}()
	return tab.WriteCSV(f)
}
