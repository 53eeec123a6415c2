/* expect.h — expected verdicts of the built-in readers (see readers.c).
 * EXPECT(reader, "scenario=VERDICT ...") ; unlisted scenarios: PASS. */
EXPECT(reference, ""),
