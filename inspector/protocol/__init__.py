"""Pure protocol helpers: envelope codec, headers, schema forms, validation. No I/O, no asyncio."""
