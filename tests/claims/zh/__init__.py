"""The claims of the Chinese notebooks (``tutorials/zh/``): each phrase exactly as that notebook writes it, checked
by the same engine checks as the English notebook's claims (``claims.nbNN``)."""
