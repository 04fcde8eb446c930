"""The HTTP edge: routes (parse, authenticate, hand over; no rules), the page, uvicorn, metrics."""
