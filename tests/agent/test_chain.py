from harp_desktop.agent.chain import long_speaker, render, short_speaker
from harp_desktop.types import Evidence


def test_each_moment_is_one_compact_numbered_line():
    ev = [Evidence(131.3, 137.2, 1, "SPEAKER_11", "I've had this tight feeling in my chest.",
                   ["emotion:sad (0.72)", "emotion:angry (0.31)", "emotion:neutral (0.9)", "cough (0.91)"],
                   {"keyword": 0.53, "text_emb": 0.69, "fused": 0.03, "time": 1.0}),
          Evidence(138.0, 143.4, 2, "Dr Simonova", "Is it there all the time?", [], {"reply": 0.02}),
          Evidence(150.0, 151.0, None, None, "", ["cough (0.80)"], {"label": 0.8})]
    lines = render(ev).splitlines()
    assert lines[0] == ('E1 [02:11-02:17] S11: "I\'ve had this tight feeling in my chest." '
                        "tags: emotion:sad 0.72, cough 0.91. (match 0.69)")  # weak and neutral emotions dropped
    assert lines[1] == 'E2 [02:18-02:23] Dr Simonova: "Is it there all the time?" (reply)'
    assert lines[2] == "E3 [02:30-02:31] unknown speaker (no speech) tags: cough 0.80. (match 0.80)"


def test_the_chain_is_capped():
    ev = [Evidence(i, i + 1, i, "SPEAKER_1", "word " * 100, [], {"keyword": 0.5}) for i in range(40)]
    text = render(ev)
    assert len(text) < 4000 and text.splitlines()[-1].startswith("...") and "more moments omitted" in text
    assert render([]) == "(no evidence found)"


def test_short_speaker_names_map_back_for_the_reader():
    assert short_speaker("SPEAKER_3") == "S3" and short_speaker("Anna") == "Anna" and short_speaker(None)
    assert long_speaker("S11 says it; S3 asks. Sheila, Sx") == "SPEAKER_11 says it; SPEAKER_3 asks. Sheila, Sx"
