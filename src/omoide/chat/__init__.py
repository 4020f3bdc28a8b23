"""Chat with a character: memory in the prompt, tokens streamed, the turn queued."""
