"""The main window's controllers, one job each: indexing (the queue and its progress),
asking (questions, answers, example clips), recording (the microphone, live transcript,
interrupted recordings). Each holds its window and talks to the widgets the window built."""
