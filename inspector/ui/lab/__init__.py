"""The Lab screen: the statelessness lab on the connected target, the calls it offers and its rows."""
