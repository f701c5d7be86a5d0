"""Panel's notebook extension, loaded by the lessons themselves when the notebook has not yet.

Panel shows a component in a notebook only once ``pn.extension()`` ran in the kernel; before, it
prints the component's text. A lesson's first cell runs it; a learner who restarts the kernel and
runs a board's cell first would see that text and not know why. :func:`load_panel_in_this_kernel`
runs the extension (inline: no internet needed) in an IPython kernel where it has not run.
"""

from __future__ import annotations


def _in_a_kernel() -> bool:
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - no IPython: not a notebook
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


def load_panel_in_this_kernel() -> bool:
    """Load Panel's notebook extension in this kernel if no cell has; True if it did now."""
    if not _in_a_kernel():
        return False
    import panel as pn
    from panel.config import panel_extension

    if panel_extension._loaded:  # noqa: SLF001  framework private: whether pn.extension() ran
        return False
    pn.extension(inline=True)
    return True


#: Links in a lesson's text underlined: JupyterLab and Voilà tell them from the text around by
#: colour alone (1.86:1 against the text, axe's link-in-text-block asks 3:1 or another mark), and
#: the language line under each title (English · Deutsch · 中文) is links in a line of text.
UNDERLINED_LINKS = (
    "<style>.jp-RenderedMarkdown a:not(.jp-InternalAnchorLink)"
    "{text-decoration:underline;text-underline-offset:2px}</style>"
)
_links_underlined = False


def underline_links_in_this_kernel() -> bool:
    """Show :data:`UNDERLINED_LINKS` once in this kernel's notebook (a style, nothing visible);
    True if it did now. Outside a kernel, nothing."""
    global _links_underlined
    if _links_underlined or not _in_a_kernel():
        return False
    from IPython.display import HTML, display

    display(HTML(UNDERLINED_LINKS))
    _links_underlined = True
    return True
