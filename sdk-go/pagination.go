package svc

// Page is one page of a list: the records and the cursor of the next page (nil on the last).
type Page[T any] struct {
	// Data holds the records of this page, in the order the operation states.
	Data []T `json:"data"`
	// Cursor is the cursor of the next page; nil on the last page.
	Cursor *string `json:"cursor"`
}

// HasMore tells whether another page follows.
func (p *Page[T]) HasMore() bool { return p.Cursor != nil && *p.Cursor != "" }

// Iter walks every record of a list, fetching the next page when the current one is used up:
//
//	it := client.Compliance.Assessments.ListAutoPaging(ctx, &svc.ComplianceAssessmentsListParams{Limit: svc.Ptr(int64(100))})
//	for it.Next() {
//		asm := it.Current()
//	}
//	if err := it.Err(); err != nil { ... }
type Iter[T any] struct {
	fetch   func(cursor *string) (*Page[T], error)
	cursor  *string
	started bool
	page    []T
	next    int
	current T
	err     error
	pages   int
}

func newIter[T any](start *string, fetch func(cursor *string) (*Page[T], error)) *Iter[T] {
	return &Iter[T]{fetch: fetch, cursor: start}
}

// Next advances to the next record, fetching a page when needed; false at the end or on an error.
func (it *Iter[T]) Next() bool {
	for {
		if it.err != nil {
			return false
		}
		if it.next < len(it.page) {
			it.current = it.page[it.next]
			it.next++
			return true
		}
		if it.started && it.cursor == nil {
			return false
		}
		page, err := it.fetch(it.cursor)
		it.started = true
		if err != nil {
			it.err = err
			return false
		}
		it.pages++
		it.page, it.next = page.Data, 0
		it.cursor = nil
		if page.HasMore() {
			it.cursor = page.Cursor
		}
	}
}

// Current is the record Next moved to.
func (it *Iter[T]) Current() T { return it.current }

// Err is the error that stopped the walk, if any.
func (it *Iter[T]) Err() error { return it.err }

// Pages is how many pages the walk fetched so far.
func (it *Iter[T]) Pages() int { return it.pages }
