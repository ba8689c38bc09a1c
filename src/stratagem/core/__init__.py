"""What every game and every algorithm shares."""
