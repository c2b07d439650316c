extension OpenNote {
    /// Shows navigation (if hidden) and hides it `duration` seconds from now.
    mutating func showNavigation(for duration: Double, _ step: inout Step) {
        if !isNavigationVisible {
            isNavigationVisible = true
            step.effects.append(.showNavigation)
        }
        deadlines.navigationHide = step.now + duration
    }

    mutating func hideNavigation(_ step: inout Step) {
        deadlines.navigationHide = nil
        if isNavigationVisible {
            isNavigationVisible = false
            step.effects.append(.hideNavigation)
        }
    }

    /// A double tap in the top edge band reveals navigation; other taps, and taps while the pen is
    /// down, do nothing.
    mutating func tap(x: Double, y: Double, count: Int, _ step: inout Step) {
        guard strokesInProgress.isEmpty, count >= 2, y >= 0, y < step.config.topEdgeBand else { return }
        showNavigation(for: step.config.navigationHideAfterReveal, &step)
    }
}
