import numpy as np

from harp_desktop.agent.sections import dialogue_span as agent_dialogue_span
from harp_desktop.findings.sections import EDGE_S, band_measures, dialogue_span, find_sections, in_sections, phone_like
from tests.findings.helpers import CONSULTATION, seg


def consultation(t0: float = 0.0) -> list[dict]:
    return [seg(a + t0, b + t0, s, text) for a, b, s, text in CONSULTATION[1:]]


def chat(t0: float, n: int = 6) -> list[dict]:
    lines = ["Hello?", "Oh, hello. I didn't know you were there.", "This is Diane in New Jersey.",
             "And I'm Sheila in Texas, originally from Chicago.", "Oh, I'm from Chicago also.", "Well, there you go."]
    return [seg(t0 + 3 * i, t0 + 3 * i + 2.5, "SPEAKER_8" if i % 2 == 0 else "SPEAKER_9", lines[i % 6])
            for i in range(n)]


def reading(t0: float, label: str = "SPEAKER_7", n: int = 4) -> list[dict]:
    return [seg(t0 + 7 * i, t0 + 7 * i + 6.5, label, "He was not an ill disposed young man, unless to be rather "
                "cold hearted is to be ill disposed.") for i in range(n)]


def kinds(sections) -> list[str]:
    return [s.kind for s in sections]


def test_the_agent_keeps_its_dialogue_span():
    assert agent_dialogue_span is dialogue_span
    a, b = dialogue_span(consultation(100.0))
    assert a == 107.0 - EDGE_S and b == 145.0 + EDGE_S


def test_reading_consultation_and_chat_are_told_apart():
    segs = reading(0.0) + consultation(40.0) + chat(100.0)
    found = find_sections(segs)
    assert kinds(found) == ["unrelated", "consultation", "phone_call"]
    cons = found[1]
    assert 45.0 <= cons.start_s <= 47.0 and 85.0 <= cons.end_s <= 87.0 and cons.confidence >= 0.8
    assert found[2].confidence == 0.6  # not clinical, two voices; without audio no bandwidth check
    assert found[0].end_s <= cons.start_s and cons.end_s <= found[2].start_s  # they never overlap


def test_band_limited_chat_is_a_confident_phone_call_and_so_is_one_side_of_it():
    segs = chat(0.0) + reading(60.0, n=2)
    found = find_sections(segs, phone=lambda s: True)
    assert kinds(found) == ["phone_call", "phone_call"] and found[0].confidence == 0.9
    assert kinds(find_sections(reading(0.0), phone=lambda s: False)) == ["unrelated"]


def test_a_waiting_room_of_many_voices_is_unrelated():
    lines = ["Kids are talking by the door.", "The child almost hurt the small dog.", "A thin stripe runs down it.",
             "Dogs are sitting by the door.", "At that high level the air is pure."]
    segs = [seg(3.0 * i, 3.0 * i + 2.0, f"SPEAKER_{i + 1}", t) for i, t in enumerate(lines)]
    assert kinds(find_sections(segs)) == ["unrelated"]


def test_a_third_voice_inside_a_consultation_does_not_split_it():
    segs = consultation(0.0)
    segs.insert(5, seg(31.0, 31.8, "SPEAKER_6", "Sorry to interrupt, the printer is jammed."))
    segs = sorted(segs, key=lambda s: s["start_s"])
    found = find_sections(segs)
    assert kinds(found) == ["consultation"]
    assert in_sections(31.0, 31.8, found)


def test_a_short_clinical_question_and_answer_is_a_consultation():
    segs = [seg(0.5, 4.7, "SPEAKER_1", "Have you had any chest pain or shortness of breath since the weekend?"),
            seg(5.3, 8.5, "SPEAKER_2", "Some chest pain when I cough, but I can breathe normally.")]
    assert kinds(find_sections(segs)) == ["consultation"]
    assert find_sections([]) == []


def test_telephone_band_is_told_from_wideband_speech():
    rng = np.random.default_rng(0)
    t = np.arange(16000 * 3) / 16000
    envelope = (np.sin(2 * np.pi * 3 * t) > 0).astype(np.float32)  # syllables and pauses
    wide = (rng.standard_normal(len(t)) * envelope * 0.1).astype(np.float32)
    spec = np.fft.rfft(wide)
    spec[np.fft.rfftfreq(len(wide), 1 / 16000) > 3500] = 0  # what a telephone line passes
    floor = rng.standard_normal(len(t)).astype(np.float32) * 1e-4  # room tone
    phone = np.fft.irfft(spec, len(wide)).astype(np.float32) + floor
    spread, drop = band_measures(wide + floor, 0.0, 3.0)
    assert spread > 10.0 and drop < 10.0 and not phone_like(wide + floor, 0.0, 3.0)
    spread, drop = band_measures(phone, 0.0, 3.0)
    assert spread < 6.0 and drop > 30.0 and phone_like(phone, 0.0, 3.0)
    assert not phone_like(phone, 0.0, 0.05)  # too short to tell
