package filefind

// WaitRelisted waits for a background relisting of root that is running, if any (tests only).
func (x *Index) WaitRelisted(root string) {
	x.mu.Lock()
	f := x.folders[root]
	var done chan struct{}
	if f != nil {
		done = f.relist
	}
	x.mu.Unlock()
	if done != nil {
		<-done
	}
}
