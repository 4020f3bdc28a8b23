"""What is worth remembering about a viewer: fact extraction, by rules or by a model.

An extractor turns one exchange into :class:`FactDecision` values against the viewer's
existing related facts: add a new fact, confirm a known one, update (supersede) one, or
delete (contradict) one. :class:`RuleFactExtractor` needs no model and reads Korean,
Japanese, Chinese and English; :class:`LLMFactExtractor` asks a chat model and validates
its answer strictly. A fact's text is in the viewer's own words, typed by category, slot and
key terms: see :mod:`omoide.memory.facts.text`.
"""
