// Package parallel runs independent pieces of work on every core.
package parallel

import (
	"runtime"
	"sync"
)

// Each calls f(i) for every i in 0..n-1, from GOMAXPROCS goroutines, and
// returns when every call has returned. Calls for different i may run at
// the same time; f must be safe for that.
func Each(n int, f func(i int)) {
	work := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(runtime.GOMAXPROCS(0), max(n, 1)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				f(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		work <- i
	}
	close(work)
	wg.Wait()
}
