document.body.dataset.loaded = "yes";
