"""The main window's parts: actions, menus, docks, layout, centre, sidebar, status line, boxes, theme."""
