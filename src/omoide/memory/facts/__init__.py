"""What omoide believes about a viewer: keeping facts (:mod:`.keeper`), a person's
corrections (:mod:`.corrections`), their text and slots (:mod:`.text`), batched decisions
(:mod:`.batch`), updates, digests and vectors."""
