/* phone: plain JavaScript, no build step (live.js carries the shared helpers) */
