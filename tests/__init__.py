"""The tests, laid out by floor as the product is (docs/testing.md « Where a test lives »)."""
