"""The claims of the German notebooks (``tutorials/de/``): each phrase exactly as that notebook writes it, checked
by the same engine checks as the English notebook's claims (``claims.nbNN``)."""
