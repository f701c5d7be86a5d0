"""The what-if notebook's side-by-side view of two branches (widgets/lesson/branches.py)."""

from widgets.lesson.branches import branch_comparison
from widgets.lesson.notebook import Lesson


def test_two_branches_side_by_side_show_the_engines_figures():
    lab = Lesson("abou-simbel-left-sums")
    lab.play("place abou_simbel.left#5", "take upper", "half", "half")
    lab.session.new_branch("eight", at=0)
    lab.play("place abou_simbel.left#6")
    shown = branch_comparison(lab.session, "main", "eight").object
    red = next(p for p in lab.session.compare("main", "eight").players if p.colour == "red")
    assert red.deben[0] != red.deben[1]  # Red paid 7 on main; on eight nothing closed
    assert f">{red.deben[0]}</td><td" in shown and f">{red.deben[1]}</td>" in shown
    assert "main" in shown and "eight" in shown


def test_a_play_refused_on_a_second_run_is_told_not_raised():
    lab = Lesson("abou-simbel-left-sums")
    first = lab.play("place abou_simbel.left#5")
    assert first and not first.refused
    again = lab.play("place abou_simbel.left#5")  # the cell run twice
    assert again.refused and "not allowed now" in again.refused
    assert again.refused in str(again)
